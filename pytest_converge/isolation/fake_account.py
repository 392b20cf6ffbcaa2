"""The fake account every run signs with: credentials valid nowhere, its id and its region.

Its own module (no imports) so that :mod:`.safety` and the emulator backends,
which use each other, both read it without a circle.
"""

#: Fake credentials used for every emulator call. They are never valid anywhere.
FAKE_ACCESS_KEY = "AKIACONVERGETEST0000"
FAKE_SECRET_KEY = "converge-fake-secret-key-not-valid-anywhere"
DEFAULT_REGION = "us-east-1"
#: The account id of an emulator that takes one (MiniStack's MINISTACK_ACCOUNT_ID): moto's
#: default, so ARNs read the same whichever backend made them.
FAKE_ACCOUNT_ID = "123456789012"
