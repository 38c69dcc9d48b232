"""Results as the library holds them: typed, exact, validated; codes for their keys;
adjustments. Pure computation: no files, no printing, no exit."""
