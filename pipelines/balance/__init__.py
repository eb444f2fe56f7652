"""``tashkalar tune``: balance tuning of a card set (docs/tuning.md).

``space`` reads the search space file, ``candidates`` writes a candidate's card files, ``evaluate`` plays a
candidate's games, ``objective`` scores them against the targets, ``search`` runs the search on Ray Tune,
``proposals`` ranks, verifies and writes what it found, ``command`` is the command line.
"""
