#ttg.linear<{register = [[0, 1], [1, 0], lane = [[0, 2]], warp = [], block = []}>
