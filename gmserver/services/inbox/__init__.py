"""The inbox: storing a message, running it (runner), routing it to its handler, polling
IMAP. The top floor: nothing in the services imports it."""
