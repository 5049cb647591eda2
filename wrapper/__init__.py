"""idiom-cc and idiom-c++: the compiler wrapper for existing builds (docs/wrapper.md)."""
