"""Province names in French, German and Italian (`province_languages`), as the continental
editions of the game print them, written with and without their accents.

Read only where the profile lists the language; whatever it lists, a name of this table is never
typo-corrected or prefix-matched into a *different* English province ("Roma" is Rome, never
Rumania): the reader says which province the name is and how to write it instead. An English name
or abbreviation that is spelled like one of these (Paris, Berlin, ROM) keeps its English meaning.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Iterable, Mapping

LANGUAGES = {"fr": "French", "de": "German", "it": "Italian"}

_NAMES: dict[str, dict[str, str]] = {
    "fr": {
        "ALB": "Albanie", "APU": "Apulie, Pouilles", "ARM": "Arménie", "BEL": "Belgique", "BOH": "Bohême",
        "BUL": "Bulgarie", "BUR": "Bourgogne", "DEN": "Danemark", "EDI": "Édimbourg", "FIN": "Finlande",
        "GAL": "Galicie", "GRE": "Grèce", "HOL": "Hollande", "LON": "Londres", "LVN": "Livonie",
        "MOS": "Moscou", "NAF": "Afrique du Nord", "NWY": "Norvège", "PIE": "Piémont", "PRU": "Prusse",
        "RUM": "Roumanie", "SER": "Serbie", "SEV": "Sébastopol", "SIL": "Silésie", "SMY": "Smyrne",
        "SPA": "Espagne", "STP": "Saint-Pétersbourg", "SWE": "Suède", "SYR": "Syrie", "TUN": "Tunisie",
        "TUS": "Toscane", "TYR": "Tyrol", "VEN": "Venise", "VIE": "Vienne", "WAL": "Pays de Galles, Galles",
        "WAR": "Varsovie", "MAR": "Marseille",
        "ADR": "Mer Adriatique, Adriatique", "AEG": "Mer Égée", "BAL": "Mer Baltique, Baltique",
        "BAR": "Mer de Barents", "BLA": "Mer Noire", "BOT": "Golfe de Botnie", "EAS": "Méditerranée Orientale",
        "ENG": "Manche", "HEL": "Héligoland", "ION": "Mer Ionienne", "LYO": "Golfe du Lion",
        "MAO": "Atlantique Moyen, Atlantique Centre", "NAO": "Atlantique Nord", "NTH": "Mer du Nord",
        "NWG": "Mer de Norvège", "TYS": "Mer Tyrrhénienne", "WES": "Méditerranée Occidentale",
    },
    "de": {
        "ALB": "Albanien", "APU": "Apulien", "ARM": "Armenien", "BEL": "Belgien", "BOH": "Böhmen",
        "BUL": "Bulgarien", "BUR": "Burgund", "CON": "Konstantinopel", "DEN": "Dänemark", "FIN": "Finnland",
        "GAL": "Galizien", "GRE": "Griechenland", "LVN": "Livland", "MOS": "Moskau", "MUN": "München",
        "NAF": "Nordafrika", "NAP": "Neapel", "NWY": "Norwegen", "PIE": "Piemont", "PRU": "Preußen, Preussen",
        "RUM": "Rumänien", "SER": "Serbien", "SEV": "Sewastopol", "SIL": "Schlesien", "SPA": "Spanien",
        "STP": "Sankt Petersburg", "SWE": "Schweden", "SYR": "Syrien", "TRI": "Triest", "TUS": "Toskana",
        "TYR": "Tirol", "VEN": "Venedig", "VIE": "Wien", "WAR": "Warschau",
        "ADR": "Adriatisches Meer, Adria", "AEG": "Ägäisches Meer, Ägäis", "BAL": "Ostsee", "BAR": "Barentssee",
        "BLA": "Schwarzes Meer", "BOT": "Bottnischer Meerbusen", "EAS": "Östliches Mittelmeer",
        "ENG": "Ärmelkanal, Englischer Kanal", "HEL": "Helgoländer Bucht", "ION": "Ionisches Meer",
        "IRI": "Irische See", "LYO": "Golf von Lyon", "MAO": "Mittelatlantik", "NAO": "Nordatlantik",
        "NTH": "Nordsee", "NWG": "Nordmeer, Norwegische See", "TYS": "Tyrrhenisches Meer",
        "WES": "Westliches Mittelmeer",
    },
    "it": {
        "APU": "Puglia, Puglie", "BEL": "Belgio", "BER": "Berlino", "BOH": "Boemia", "BUR": "Borgogna",
        "CON": "Costantinopoli", "DEN": "Danimarca", "EDI": "Edimburgo", "FIN": "Finlandia", "GAL": "Galizia",
        "GAS": "Guascogna", "GRE": "Grecia", "HOL": "Olanda", "LON": "Londra", "MAR": "Marsiglia",
        "MOS": "Mosca", "NAF": "Nord Africa, Africa del Nord", "NAP": "Napoli", "NWY": "Norvegia",
        "PAR": "Parigi", "PIC": "Piccardia", "PIE": "Piemonte", "POR": "Portogallo", "ROM": "Roma",
        "SEV": "Sebastopoli", "SIL": "Slesia", "SMY": "Smirne", "SPA": "Spagna", "STP": "San Pietroburgo",
        "SWE": "Svezia", "SYR": "Siria", "TUN": "Tunisi", "TUS": "Toscana", "TYR": "Tirolo", "UKR": "Ucraina",
        "VEN": "Venezia", "VIE": "Vienna", "WAL": "Galles", "WAR": "Varsavia", "MUN": "Monaco di Baviera",
        "ADR": "Mare Adriatico, Adriatico", "AEG": "Mare Egeo, Egeo", "BAL": "Mar Baltico, Baltico",
        "BAR": "Mare di Barents", "BLA": "Mar Nero", "BOT": "Golfo di Botnia", "EAS": "Mediterraneo Orientale",
        "ENG": "Canale della Manica, Manica", "ION": "Mar Ionio, Ionio", "LYO": "Golfo del Leone",
        "MAO": "Atlantico Centrale, Medio Atlantico", "NAO": "Atlantico del Nord, Nord Atlantico",
        "NTH": "Mare del Nord", "NWG": "Mare di Norvegia", "TYS": "Mar Tirreno, Tirreno",
        "WES": "Mediterraneo Occidentale",
    },
}


def plain_key(text: str) -> str:
    """Upper case, accents and punctuation off, words one space apart ("Saint-Pétersbourg" ->
    "SAINT PETERSBOURG", "Preußen" -> "PREUSSEN")."""
    if text.isascii():
        return " ".join(re.split(r"[^A-Z]+", text.upper())).strip()
    return _plain_key(text)


@functools.lru_cache(maxsize=4096)
def _plain_key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.upper().replace("ß", "SS").replace("ẞ", "SS"))
    letters = "".join(c for c in folded if not unicodedata.combining(c))
    return " ".join(w for w in re.split(r"[^A-Z]+", letters) if w)


def _table(languages: Iterable[str]) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for language in languages:
        for code, names in _NAMES[language].items():
            for name in names.split(","):
                out.setdefault(plain_key(name), (language, code))
    return out


KNOWN: Mapping[str, tuple[str, str]] = _table(LANGUAGES)  # every name -> (language, province)


@functools.cache
def names_in(languages: frozenset[str]) -> Mapping[str, str]:
    """The names read under `province_languages` = `languages` -> province."""
    return {key: code for key, (_, code) in _table(sorted(languages & LANGUAGES.keys())).items()}


def language_of(key: str) -> str | None:
    """The language (in English words) a name of this table is written in."""
    known = KNOWN.get(plain_key(key))
    return LANGUAGES[known[0]] if known else None
