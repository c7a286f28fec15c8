"""The staff's review of games in Django admin: the match list and pages, board pictures,
dice statistics and the moderation actions (which go through the services)."""
