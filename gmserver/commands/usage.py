"""The usage of the GM commands whose services quote it in their own errors (the services import it
from here: a command's module imports its service when it runs)."""

PROPOSE = ("propose [GAME] DRAW [POWERS] | propose [GAME] CONCEDE POWER | propose [GAME] RULE CHANGE WORDS | "
           "propose [GAME] END GAME TERMS")
VOTE = "vote [GAME] PROPOSAL yes|no|abstain"
