"""The built-in games' parts of the web surface, one module each (found through ``GameEntry.web_routes``)."""
