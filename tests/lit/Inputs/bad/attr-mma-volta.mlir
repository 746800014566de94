#ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
