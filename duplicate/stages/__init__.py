"""The platform's stage formats (docs/scoring.md section 8): stack elimination and fixed hands."""
