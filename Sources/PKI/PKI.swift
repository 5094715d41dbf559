// The PKI module: see README.md for the architecture.
