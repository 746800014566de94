#ttg.amd_wmma<{version = 2, isTranspose = true}>
