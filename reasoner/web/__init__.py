"""`reasoner serve`: the JSON API and the analyst's page (needs the `web` extra: pip install 'reasoner[web]')."""
