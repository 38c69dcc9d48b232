"""The platform's stage formats (SCORING.md section 8): stack elimination and fixed hands."""
