"""AWS App Runner base URL and path (loaded as ``moto.apprunner.urls``)."""

from .responses import AppRunnerResponse

url_bases = [r"https?://apprunner\.(.+)\.amazonaws\.com"]

url_paths = {"{0}/$": AppRunnerResponse.dispatch}
