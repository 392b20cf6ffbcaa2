"""AWS Outposts base URL and paths (loaded as ``moto.outposts.urls``)."""

from .responses import OutpostsResponse

url_bases = [r"https?://outposts\.(.+)\.amazonaws\.com"]

url_paths = {
    "{0}/outposts$": OutpostsResponse.dispatch,
    "{0}/outposts/(?P<OutpostId>[^/]+)$": OutpostsResponse.dispatch,
    "{0}/sites$": OutpostsResponse.dispatch,
    "{0}/sites/(?P<SiteId>[^/]+)$": OutpostsResponse.dispatch,
    "{0}/tags/(?P<ResourceArn>.+)$": OutpostsResponse.dispatch,
}
