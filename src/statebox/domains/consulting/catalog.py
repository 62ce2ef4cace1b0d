"""Reference data of the firm: offices, practices, cities, the software, device and course catalogues."""

from __future__ import annotations

OFFICES = [  # id, city, country, line1, postal code
    ("OFC-01", "New York", "US", "300 Park Avenue South", "10010"),
    ("OFC-02", "Chicago", "US", "155 N Wacker Drive", "60606"),
    ("OFC-03", "Boston", "US", "100 Federal Street", "02110"),
    ("OFC-04", "Austin", "US", "500 W 2nd Street", "78701"),
    ("OFC-05", "Denver", "US", "1700 Lincoln Street", "80203"),
    ("OFC-06", "Toronto", "CA", "181 Bay Street", "M5J 2T3"),
    ("OFC-07", "London", "GB", "20 Farringdon Road", "EC1M 3HE"),
    ("OFC-08", "Dublin", "IE", "2 Grand Canal Square", "D02 A342"),
]

PRACTICES = [  # id, name
    ("PRC-01", "Strategy"),
    ("PRC-02", "Operations"),
    ("PRC-03", "Technology"),
    ("PRC-04", "Data and Analytics"),
    ("PRC-05", "People and Change"),
    ("PRC-06", "Finance and Risk"),
]

CITIES = {  # band -> cities (name, country); a city not listed is band C
    "A": [("New York", "US"), ("San Francisco", "US"), ("Boston", "US"), ("Washington", "US"), ("London", "GB"),
          ("Zurich", "CH"), ("Geneva", "CH"), ("Paris", "FR"), ("Tokyo", "JP"), ("Singapore", "SG"),
          ("Hong Kong", "HK"), ("Oslo", "NO")],
    "B": [("Chicago", "US"), ("Seattle", "US"), ("Los Angeles", "US"), ("Austin", "US"), ("Miami", "US"),
          ("Atlanta", "US"), ("Toronto", "CA"), ("Montreal", "CA"), ("Dublin", "IE"), ("Amsterdam", "NL"),
          ("Frankfurt", "DE"), ("Munich", "DE"), ("Madrid", "ES"), ("Sydney", "AU"), ("Copenhagen", "DK")],
    "C": [("Denver", "US"), ("Columbus", "US"), ("Phoenix", "US"), ("Pittsburgh", "US"), ("Raleigh", "US"),
          ("Kansas City", "US"), ("Nashville", "US"), ("Cleveland", "US"), ("Omaha", "US"), ("Manchester", "GB"),
          ("Leeds", "GB"), ("Lisbon", "PT"), ("Porto", "PT"), ("Krakow", "PL"), ("Calgary", "CA")],
}

# name, vendor, category, annual cost of the standard edition, restricted (a Premium edition follows each paid one)
SOFTWARE = [
    ("Microsoft 365 E3", "Microsoft", "productivity", 0, 0),
    ("Slack", "Salesforce", "collaboration", 0, 0),
    ("Zoom Workplace", "Zoom", "collaboration", 0, 0),
    ("Miro", "Miro", "collaboration", 96, 0),
    ("Mural", "Tactivos", "collaboration", 120, 0),
    ("Lucid Visual Collaboration", "Lucid", "diagramming", 108, 0),
    ("Visio Plan 2", "Microsoft", "diagramming", 180, 0),
    ("Adobe Acrobat Pro", "Adobe", "documents", 240, 0),
    ("Adobe Creative Cloud", "Adobe", "design", 720, 0),
    ("Figma", "Figma", "design", 540, 0),
    ("Canva Teams", "Canva", "design", 120, 0),
    ("think-cell", "think-cell", "presentation", 290, 0),
    ("Macabacus", "Macabacus", "presentation", 420, 0),
    ("UpSlide", "UpSlide", "presentation", 360, 0),
    ("Tableau Creator", "Salesforce", "analytics", 900, 0),
    ("Tableau Explorer", "Salesforce", "analytics", 504, 0),
    ("Power BI Pro", "Microsoft", "analytics", 168, 0),
    ("Alteryx Designer", "Alteryx", "analytics", 5195, 0),
    ("Qlik Sense", "Qlik", "analytics", 360, 0),
    ("Stata MP", "StataCorp", "statistics", 1395, 0),
    ("SAS Analytics Pro", "SAS", "statistics", 8700, 0),
    ("MATLAB", "MathWorks", "statistics", 940, 0),
    ("JMP Pro", "JMP", "statistics", 1650, 0),
    ("Databricks Workspace", "Databricks", "data_platform", 2400, 1),
    ("Snowflake Client Sandbox", "Snowflake", "data_platform", 1800, 1),
    ("DataRobot", "DataRobot", "machine_learning", 6000, 1),
    ("GitHub Copilot Business", "GitHub", "developer", 228, 0),
    ("GitHub Enterprise", "GitHub", "developer", 252, 0),
    ("JetBrains All Products", "JetBrains", "developer", 779, 0),
    ("Postman Professional", "Postman", "developer", 348, 0),
    ("Docker Business", "Docker", "developer", 288, 0),
    ("Jira Software", "Atlassian", "project", 0, 0),
    ("Confluence", "Atlassian", "project", 0, 0),
    ("Smartsheet Business", "Smartsheet", "project", 300, 0),
    ("Microsoft Project Plan 3", "Microsoft", "project", 360, 0),
    ("Asana Business", "Asana", "project", 300, 0),
    ("Capital IQ", "S&P Global", "market_data", 12500, 0),
    ("PitchBook", "PitchBook", "market_data", 9800, 0),
    ("Statista Professional", "Statista", "market_data", 1788, 0),
    ("Gartner Research Seat", "Gartner", "market_data", 3400, 0),
    ("Euromonitor Passport", "Euromonitor", "market_data", 4200, 0),
    ("Qualtrics CoreXM", "Qualtrics", "survey", 1500, 0),
    ("SurveyMonkey Team", "Momentive", "survey", 300, 0),
    ("Crystal Ball", "Oracle", "modelling", 995, 0),
    ("@RISK", "Lumivero", "modelling", 1975, 0),
    ("AnyLogic Professional", "AnyLogic", "modelling", 7900, 0),
    ("Celonis Process Mining", "Celonis", "process", 4800, 1),
    ("Signavio Process Manager", "SAP", "process", 1320, 0),
    ("ARIS Architect", "Software AG", "process", 2150, 0),
    ("Workday Adaptive Planning", "Workday", "planning", 2600, 1),
    ("Anaplan Modeler", "Anaplan", "planning", 3900, 1),
    ("Otter Business", "Otter.ai", "transcription", 240, 1),
    ("Grammarly Business", "Grammarly", "writing", 180, 0),
    ("DeepL Pro", "DeepL", "translation", 300, 0),
    ("1Password Teams", "1Password", "security", 0, 0),
]

EDITION_FACTOR = 1.6  # the Premium edition of each paid title costs this much more (rounded to the dollar)

# name, kind, cost, standard
DEVICE_MODELS = [
    ("Lenovo ThinkPad T14 Gen 5", "laptop", 1480, 1),
    ("Lenovo ThinkPad X1 Carbon Gen 12", "laptop", 2290, 0),
    ("Apple MacBook Pro 14 M3", "laptop", 2399, 0),
    ("Dell XPS 15", "laptop", 2150, 0),
    ("Apple iPhone 15", "phone", 799, 1),
    ("Apple iPhone 15 Pro", "phone", 999, 0),
    ("Samsung Galaxy S24", "phone", 859, 0),
    ("Dell P2723D 27-inch monitor", "monitor", 329, 1),
    ("LG UltraFine 32-inch 4K monitor", "monitor", 699, 0),
    ("Lenovo USB-C Dock Gen 2", "dock", 249, 1),
    ("CalDigit TS4 dock", "dock", 399, 0),
    ("Jabra Evolve2 65 headset", "headset", 239, 1),
    ("Poly Voyager Focus 2 headset", "headset", 299, 0),
]

# topic, provider, cost
COURSE_TOPICS = [
    ("Advanced Financial Modelling", "Wall Street Prep", 1450), ("Structured Problem Solving", "Corvane Academy", 0),
    ("Executive Presence", "Ashridge", 2200), ("Negotiation Fundamentals", "Harvard PON", 3100),
    ("SQL for Consultants", "DataCamp", 390), ("Python for Analysts", "DataCamp", 480),
    ("Machine Learning Foundations", "Coursera", 620), ("Tableau Desktop Specialist", "Salesforce", 250),
    ("PRINCE2 Foundation", "Axelos", 980), ("PMP Exam Preparation", "PMI", 1750),
    ("Agile Coaching", "Scrum Alliance", 1290), ("Certified ScrumMaster", "Scrum Alliance", 1095),
    ("Change Management Practitioner", "Prosci", 4100), ("Lean Six Sigma Green Belt", "ASQ", 1900),
    ("Storytelling with Data", "SWD", 795), ("Facilitation Skills", "Corvane Academy", 0),
    ("AWS Cloud Practitioner", "Amazon", 300), ("Azure Fundamentals", "Microsoft", 165),
    ("Workday HCM Essentials", "Workday", 2600), ("SAP S/4HANA Overview", "SAP", 1350),
    ("CFA Level I Review", "Kaplan", 899), ("Business Writing", "Corvane Academy", 0),
    ("Leading High-Performing Teams", "INSEAD", 4800), ("ESG Reporting Essentials", "GRI", 700),
]
