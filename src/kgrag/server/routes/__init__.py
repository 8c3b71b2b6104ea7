"""HTTP route modules: questions (ask, stream, search, strategies), documents and jobs, graph and stats."""
