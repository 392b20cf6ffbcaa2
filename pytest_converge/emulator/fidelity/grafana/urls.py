"""Amazon Managed Grafana base URL and paths (loaded as ``moto.grafana.urls``)."""

from .responses import GrafanaResponse

url_bases = [r"https?://grafana\.(.+)\.amazonaws\.com"]

url_paths = {
    "{0}/workspaces$": GrafanaResponse.dispatch,
    "{0}/workspaces/(?P<workspaceId>[^/]+)$": GrafanaResponse.dispatch,
    "{0}/workspaces/(?P<workspaceId>[^/]+)/(?P<part>[^/]+)$": GrafanaResponse.dispatch,
    "{0}/workspaces/(?P<workspaceId>[^/]+)/(?P<part>[^/]+)/(?P<id>[^/]+)$": (
        GrafanaResponse.dispatch
    ),
    "{0}/workspaces/(?P<workspaceId>[^/]+)/serviceaccounts/(?P<serviceAccountId>[^/]+)/tokens$": (
        GrafanaResponse.dispatch
    ),
    "{0}/workspaces/(?P<workspaceId>[^/]+)/serviceaccounts/(?P<serviceAccountId>[^/]+)/tokens/(?P<tokenId>[^/]+)$": (  # noqa: E501
        GrafanaResponse.dispatch
    ),
    "{0}/versions$": GrafanaResponse.dispatch,
    "{0}/tags/(?P<resourceArn>.+)$": GrafanaResponse.dispatch,
}
