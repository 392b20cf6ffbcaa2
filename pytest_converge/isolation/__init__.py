"""What keeps a run on this machine and stoppable.

``safety`` is the loopback and credential guard, ``egress`` the proxy that
refuses every host beyond the emulator, ``local_server`` the loopback server
they run on, ``fake_account`` the run's fake account, ``cancel`` the signals.
"""
