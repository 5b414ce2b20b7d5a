// Samples; see the documentation.
