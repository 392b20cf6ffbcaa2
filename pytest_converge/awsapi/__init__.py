"""The AWS API as data: botocore's service models and what they say of a run's findings.

``model`` maps a provider attribute to the API member it is sent as; ``facts``
looks up what that model and the emulator's source say about a run's findings
and refused calls.
"""
