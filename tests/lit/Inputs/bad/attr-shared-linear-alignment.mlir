#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}>
