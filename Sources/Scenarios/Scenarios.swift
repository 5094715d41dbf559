// The Scenarios module: see README.md for the architecture.
