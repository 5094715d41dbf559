// The Simulation module: see README.md for the architecture.
