"""Rule classes for variants whose rules go beyond what the data says; each module registers its
classes with ``engine.rules.register`` and is imported when the first variant loads."""
