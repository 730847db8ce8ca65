"""The package version, kept at the bottom layer so every output can name its engine."""

__version__ = "0.1.0"
ENGINE = f"bja {__version__}"  # how outputs name the engine that computed them
