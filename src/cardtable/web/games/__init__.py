"""The built-in games' parts of the web surface, one module each (found through each kit's ``web_routes``)."""
