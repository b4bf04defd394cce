"""A local web page over the same engines as the command line: ``mathhammer serve``.

The top layer of the package: it imports the games' public API and nothing imports it.
Pages (each a bookmarkable URL whose query string holds the situation):

- ``/``: weapon lines against target lines (Warhammer 40,000), checked as you type;
- ``/army``: a dropped roster file, its listing and a matrix against archetypes or a second
  list, each cell opening its full distributions;
- ``/battle``: a scenario (TOML) edited in the page or written from two rosters, run;
- ``/warmachine`` and ``/dust``: those games' main forms.

Engine work runs in a small thread pool (:mod:`mathhammer.web.jobs`), never on the event
loop, with progress and cancelling; :mod:`mathhammer.web.guard` refuses requests from other
sites. Starlette, uvicorn, Jinja2 and python-multipart come with the ``web`` extra.
"""
