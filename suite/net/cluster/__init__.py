"""Several server processes on one PostgreSQL store and one Redis presence: which process
owns which room (`ownership.LeasedOwnership`) and how a client's messages reach it from
any process (`routing.ForwardingRouting`). `seams.seams_for` gives a server its seams: these
on a shared presence, the single-process defaults of `suite.net.server.seams` without.
"""
