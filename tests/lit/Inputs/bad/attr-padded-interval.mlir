#ttg.padded_shared<[3:+2] {order = [1, 0], shape = [16, 16]}>
