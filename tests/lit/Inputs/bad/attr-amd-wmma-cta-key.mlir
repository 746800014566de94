#ttg.amd_wmma<{version = 2, ctaLayout = {warp = [[1, 0]], lane = [[0, 1]]}}>
