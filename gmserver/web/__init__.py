"""The read-only web pages: a Starlette app (`app.create_app`) served by uvicorn (`server`), beside
the mail side in the daemon's process or alone (`gmserver web`). Every change stays a mail or a
GM command; nothing here writes to the database."""
