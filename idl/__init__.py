"""IDL, the Idiom Description Language: grammar, parser, AST and compiler."""
