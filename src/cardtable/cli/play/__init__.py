"""Playing the games in a terminal: screens (``render``), the table's model (``session``), the input loop
(``loop``), prompts (``terminal``) and the shipped rulebooks (``rulebook``)."""
