"""The minimal lobby page the server serves at ``/`` (``static/``): list, create, join, watch and play rooms.

Every name and every string from the server is put on the page as text (``textContent``), never as HTML.
"""
