#ttg.linear<{register = [[0, 1.5]], lane = [], warp = [], block = []}>
