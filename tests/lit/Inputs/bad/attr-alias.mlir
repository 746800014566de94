#blocked
