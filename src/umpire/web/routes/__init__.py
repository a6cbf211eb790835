"""The web table's routes, one router a kind of page (``umpire.web.app`` assembles them).

``host``: the start page and its lobby; ``seat``: what every table's page does (the page,
its panel, real and joint dice, undo, fork, end, the after-action report, verify);
``battle``: a battle's orders and its move allowance; ``book``: the dice book's actions
(a module table's commands too) and a roll's odds; ``command``: a module table's questions
(the Gettysburg assistant's command phase); ``live``: server-sent events; ``api``: the JSON
API under ``/api``. Each module's ``router(web, r)`` adds its routes, over the app's shared
:class:`~umpire.web.routes.context.Web`, to ``r``: the app's own router (an included router
would be one more level for every request to search).
"""
