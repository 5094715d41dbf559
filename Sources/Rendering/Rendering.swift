// The Rendering module: see README.md for the architecture.
