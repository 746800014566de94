#ttg.padded_shared<[32:4] {order = [1, 0], shape = [16, 16]}>
