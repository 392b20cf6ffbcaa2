"""Pure analysis: plans, state and inventories in, defect records out.

Nothing in this package imports pytest, starts a process or opens a socket.
"""
