"""AWS Global Accelerator base URL and path (loaded as ``moto.globalaccelerator.urls``)."""

from .responses import GlobalAcceleratorResponse

url_bases = [r"https?://globalaccelerator\.(.+)\.amazonaws\.com"]

url_paths = {"{0}/$": GlobalAcceleratorResponse.dispatch}
