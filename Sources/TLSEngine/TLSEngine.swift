// The TLSEngine module: see README.md for the architecture.
