"""The travel network the seed is built from: airports, carriers and the timetable's routes."""

from __future__ import annotations

import math

# code, city, country, latitude, longitude
AIRPORTS: tuple[tuple[str, str, str, float, float], ...] = (
    ("LIS", "Lisbon", "PT", 38.77, -9.13),
    ("MAD", "Madrid", "ES", 40.47, -3.56),
    ("BCN", "Barcelona", "ES", 41.30, 2.08),
    ("CDG", "Paris", "FR", 49.01, 2.55),
    ("AMS", "Amsterdam", "NL", 52.31, 4.76),
    ("FRA", "Frankfurt", "DE", 50.03, 8.56),
    ("MUC", "Munich", "DE", 48.35, 11.79),
    ("FCO", "Rome", "IT", 41.80, 12.25),
    ("ATH", "Athens", "GR", 37.94, 23.94),
    ("CPH", "Copenhagen", "DK", 55.62, 12.65),
    ("DUB", "Dublin", "IE", 53.42, -6.27),
    ("LHR", "London", "GB", 51.47, -0.45),
    ("IST", "Istanbul", "TR", 41.26, 28.74),
    ("JFK", "New York", "US", 40.64, -73.78),
    ("BOS", "Boston", "US", 42.36, -71.01),
    ("ORD", "Chicago", "US", 41.97, -87.91),
    ("YUL", "Montreal", "CA", 45.47, -73.74),
    ("DXB", "Dubai", "AE", 25.25, 55.36),
    ("RAK", "Marrakesh", "MA", 31.61, -8.04),
    ("KEF", "Reykjavik", "IS", 63.98, -22.61),
)

# code, name
CARRIERS: tuple[tuple[str, str], ...] = (
    ("AU", "Aurora Air"),
    ("NW", "Northwind Airways"),
    ("SO", "Solano"),
    ("MR", "Meridia"),
)

# Forty city pairs; each is flown both ways, so the timetable has eighty flight numbers.
ROUTES: tuple[tuple[str, str], ...] = (
    ("LIS", "MAD"), ("LIS", "CDG"), ("LIS", "LHR"), ("LIS", "JFK"), ("LIS", "BOS"),
    ("LIS", "RAK"), ("MAD", "BCN"), ("MAD", "FCO"), ("MAD", "JFK"), ("MAD", "ORD"),
    ("BCN", "AMS"), ("BCN", "ATH"), ("CDG", "AMS"), ("CDG", "FCO"), ("CDG", "YUL"),
    ("CDG", "DXB"), ("AMS", "CPH"), ("AMS", "JFK"), ("AMS", "KEF"), ("FRA", "MUC"),
    ("FRA", "IST"), ("FRA", "ORD"), ("FRA", "DXB"), ("MUC", "ATH"), ("MUC", "FCO"),
    ("FCO", "ATH"), ("FCO", "IST"), ("ATH", "IST"), ("CPH", "KEF"), ("CPH", "LHR"),
    ("DUB", "LHR"), ("DUB", "BOS"), ("DUB", "JFK"), ("LHR", "JFK"), ("LHR", "DXB"),
    ("LHR", "KEF"), ("IST", "DXB"), ("JFK", "ORD"), ("BOS", "YUL"), ("KEF", "BOS"),
)

FIRST_NAMES = (
    "Ana", "Bruno", "Carla", "Daniel", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Katja", "Luis",
    "Maya", "Nils", "Olga", "Pedro", "Quinn", "Rosa", "Samir", "Tara", "Ugo", "Vera", "Wim", "Ximena",
    "Yusuf", "Zoe", "Amara", "Bjorn", "Chloe", "Dario", "Eva", "Felix", "Gaia", "Henrik", "Ivy", "Jules",
    "Kofi", "Lena", "Marco", "Nadia", "Oscar", "Priya", "Rafael", "Sofia", "Tomas", "Una", "Viktor", "Wanda",
)
LAST_NAMES = (
    "Almeida", "Berg", "Castro", "Dubois", "Eriksen", "Fischer", "Garcia", "Hansen", "Ibarra", "Jansen",
    "Kowalski", "Lindgren", "Moreau", "Novak", "Ortega", "Petrov", "Quintero", "Rossi", "Santos", "Thorsen",
    "Ueda", "Varga", "Weber", "Xavier", "Yilmaz", "Zanetti", "Abbott", "Brennan", "Costa", "Delgado",
    "Esposito", "Ferreira", "Gallagher", "Holm", "Iversen", "Jovanovic", "Keller", "Lombardi", "Murphy",
    "Nakamura", "Olsen", "Pires", "Romero", "Schmidt", "Tavares", "Vidal", "Walsh", "Zimmer",
)
HOTELS = ("Harbour View Hotel", "Old Town Suites", "Parkside Inn", "Central Station Hotel", "Riverside Lodge",
          "The Courtyard Rooms", "Skyline Residence")
ROOM_TYPES = ("standard double", "twin room", "superior double", "junior suite")


def distance_km(a: str, b: str) -> int:
    """Great-circle distance between two airports, rounded to the kilometre."""
    pa = next(p for p in AIRPORTS if p[0] == a)
    pb = next(p for p in AIRPORTS if p[0] == b)
    lat1, lon1, lat2, lon2 = map(math.radians, (pa[3], pa[4], pb[3], pb[4]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return round(2 * 6371 * math.asin(math.sqrt(h)))
