"""Fixed reference data of the shop: its catalog, promotions and the name pools the seed draws from."""

from __future__ import annotations


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# (name, category, price, warranty_months, installable, brand)
PRODUCTS: list[tuple[str, str, float, int, int, str]] = [
    ("Aurora 55-inch 4K Smart TV", "electronics", 649.00, 24, 1, "Aurora"),
    ("Aurora 65-inch OLED TV", "electronics", 1499.00, 24, 1, "Aurora"),
    ("Quill 14 Laptop, 16 GB", "electronics", 1099.00, 12, 0, "Quill"),
    ("Quill Tab 11 Tablet", "electronics", 429.00, 12, 0, "Quill"),
    ("Pulse Noise-Cancelling Headphones", "electronics", 249.99, 12, 0, "Pulse"),
    ("Pulse True Wireless Earbuds", "electronics", 129.99, 12, 0, "Pulse"),
    ("Beacon Smart Speaker", "electronics", 89.99, 12, 0, "Beacon"),
    ("Beacon Video Doorbell", "electronics", 179.00, 12, 1, "Beacon"),
    ("Trailcam Action Camera", "electronics", 299.00, 12, 0, "Trailcam"),
    ("Lumen Mirrorless Camera Kit", "electronics", 1249.00, 24, 0, "Lumen"),
    ("Vector Gaming Monitor 27-inch", "electronics", 379.00, 24, 0, "Vector"),
    ("Vector Mechanical Keyboard", "electronics", 119.00, 12, 0, "Vector"),
    ("Relay Mesh Wi-Fi System (3-pack)", "electronics", 279.00, 24, 0, "Relay"),
    ("Relay USB-C Charging Hub", "electronics", 39.99, 12, 0, "Relay"),
    ("Tidewater Front-Load Washer", "appliances", 899.00, 24, 1, "Tidewater"),
    ("Tidewater Heat-Pump Dryer", "appliances", 1049.00, 24, 1, "Tidewater"),
    ("Frostline French-Door Refrigerator", "appliances", 2199.00, 24, 1, "Frostline"),
    ("Frostline Built-In Dishwasher", "appliances", 749.00, 24, 1, "Frostline"),
    ("Emberly Induction Range", "appliances", 1399.00, 24, 1, "Emberly"),
    ("Breeze Robot Vacuum", "appliances", 349.00, 12, 0, "Breeze"),
    ("Breeze Cordless Stick Vacuum", "appliances", 229.00, 12, 0, "Breeze"),
    ("Breeze Air Purifier", "appliances", 189.00, 12, 0, "Breeze"),
    ("Copperleaf Espresso Machine", "kitchen", 599.00, 24, 0, "Copperleaf"),
    ("Copperleaf Burr Coffee Grinder", "kitchen", 149.00, 12, 0, "Copperleaf"),
    ("Hearth High-Speed Blender", "kitchen", 189.95, 24, 0, "Hearth"),
    ("Hearth Stand Mixer", "kitchen", 329.00, 24, 0, "Hearth"),
    ("Hearth Air Fryer 6 qt", "kitchen", 119.00, 12, 0, "Hearth"),
    ("Ironroot Cast-Iron Skillet 12-inch", "kitchen", 44.95, 0, 0, "Ironroot"),
    ("Ironroot Enameled Dutch Oven", "kitchen", 119.95, 0, 0, "Ironroot"),
    ("Saltmarsh Stoneware Dinner Set (16 pc)", "kitchen", 89.00, 0, 0, "Saltmarsh"),
    ("Saltmarsh Glass Tumblers (set of 6)", "kitchen", 29.50, 0, 0, "Saltmarsh"),
    ("Keenedge Chef's Knife 8-inch", "kitchen", 79.00, 0, 0, "Keenedge"),
    ("Meadow Linen Duvet Cover, Queen", "home", 129.00, 0, 0, "Meadow"),
    ("Meadow Percale Sheet Set, King", "home", 98.00, 0, 0, "Meadow"),
    ("Meadow Down-Alternative Pillows (2)", "home", 59.00, 0, 0, "Meadow"),
    ("Glow Ceramic Table Lamp", "home", 74.00, 0, 0, "Glow"),
    ("Glow Smart LED Bulbs (4-pack)", "home", 49.99, 12, 0, "Glow"),
    ("Weft Hand-Woven Area Rug 5x8", "home", 249.00, 0, 0, "Weft"),
    ("Weft Cotton Bath Towels (set of 4)", "home", 45.00, 0, 0, "Weft"),
    ("Ridgeway Oak Dining Table", "furniture", 1290.00, 12, 1, "Ridgeway"),
    ("Ridgeway Upholstered Dining Chair", "furniture", 189.00, 12, 0, "Ridgeway"),
    ("Cove Three-Seat Sofa", "furniture", 1599.00, 24, 0, "Cove"),
    ("Cove Accent Armchair", "furniture", 549.00, 12, 0, "Cove"),
    ("Studio Standing Desk", "furniture", 499.00, 60, 1, "Studio"),
    ("Studio Ergonomic Office Chair", "furniture", 389.00, 60, 0, "Studio"),
    ("Nook Walnut Bookshelf", "furniture", 279.00, 12, 0, "Nook"),
    ("Harbor Merino Crew Sweater", "apparel", 89.00, 0, 0, "Harbor"),
    ("Harbor Waxed Field Jacket", "apparel", 219.00, 0, 0, "Harbor"),
    ("Harbor Selvedge Jeans", "apparel", 119.00, 0, 0, "Harbor"),
    ("Stride Trail Running Shoes", "apparel", 139.00, 0, 0, "Stride"),
    ("Stride Everyday Sneakers", "apparel", 95.00, 0, 0, "Stride"),
    ("Harbor Organic Cotton Tee (3-pack)", "apparel", 48.00, 0, 0, "Harbor"),
    ("Summit Down Puffer Jacket", "apparel", 259.00, 0, 0, "Summit"),
    ("Summit Two-Person Tent", "outdoor", 329.00, 24, 0, "Summit"),
    ("Summit 20F Sleeping Bag", "outdoor", 189.00, 24, 0, "Summit"),
    ("Summit Trekking Poles", "outdoor", 69.00, 12, 0, "Summit"),
    ("Ember Portable Gas Grill", "outdoor", 279.00, 24, 0, "Ember"),
    ("Ember Kamado Charcoal Grill", "outdoor", 899.00, 60, 1, "Ember"),
    ("Cascade Insulated Water Bottle", "outdoor", 34.95, 0, 0, "Cascade"),
    ("Cascade Hard-Sided Cooler 45 qt", "outdoor", 249.00, 60, 0, "Cascade"),
    ("Velo Commuter E-Bike", "outdoor", 1899.00, 24, 0, "Velo"),
    ("Velo Bike Helmet", "outdoor", 79.00, 0, 0, "Velo"),
]

# (id, code, description, percent_off, amount_off, min_subtotal, category, min_tier, starts, expires)
PROMOTIONS: list[tuple[str, str, str, float | None, float | None, float, str | None, str | None, str, str]] = [
    ("PRM-101", "WELCOME10", "10% off a first order", 10, None, 0, None, None,
     "2024-01-01T00:00:00+00:00", "2025-12-31T23:59:59+00:00"),
    ("PRM-102", "SUMMER25", "$25 off orders of $150 or more", None, 25, 150, None, None,
     "2025-06-01T00:00:00+00:00", "2025-08-31T23:59:59+00:00"),
    ("PRM-103", "FALLHOME15", "15% off home goods", 15, None, 0, "home", None,
     "2025-09-01T00:00:00+00:00", "2025-10-31T23:59:59+00:00"),
    ("PRM-104", "KITCHEN20", "20% off kitchen", 20, None, 100, "kitchen", None,
     "2025-09-15T00:00:00+00:00", "2025-09-28T23:59:59+00:00"),
    ("PRM-105", "GOLDTECH50", "$50 off electronics for gold and platinum members", None, 50, 300,
     "electronics", "gold", "2025-09-10T00:00:00+00:00", "2025-10-15T23:59:59+00:00"),
    ("PRM-106", "OUTDOOR30", "$30 off outdoor gear over $200", None, 30, 200, "outdoor", None,
     "2025-08-15T00:00:00+00:00", "2025-09-20T23:59:59+00:00"),
    ("PRM-107", "APPAREL10", "10% off apparel", 10, None, 0, "apparel", None,
     "2025-09-20T00:00:00+00:00", "2025-10-20T23:59:59+00:00"),
    ("PRM-108", "PLATINUM12", "12% off for platinum members", 12, None, 0, None, "platinum",
     "2025-01-01T00:00:00+00:00", "2025-12-31T23:59:59+00:00"),
    ("PRM-109", "FREESHIP", "$9.95 off shipping-eligible orders over $50", None, 9.95, 50, None, None,
     "2025-07-01T00:00:00+00:00", "2025-09-30T23:59:59+00:00"),
    ("PRM-110", "BLACKFRI24", "20% off sitewide (Black Friday 2024)", 20, None, 0, None, None,
     "2024-11-29T00:00:00+00:00", "2024-12-02T23:59:59+00:00"),
    ("PRM-111", "OCTOBER40", "$40 off orders of $400 or more", None, 40, 400, None, None,
     "2025-10-05T00:00:00+00:00", "2025-10-31T23:59:59+00:00"),
]

FIRST_NAMES = _words(
    "Olivia Liam Emma Noah Ava Elijah Sophia Mateo Isabella Lucas Mia Levi Amelia Ethan Harper "
    "James Evelyn Benjamin Abigail Henry Emily Samuel Ella Daniel Elena Michael Chloe Jack Aisha "
    "Omar Priya Arjun Mei Wei Hiroshi Yuki Sofia Diego Camila Mateus Fatima Yusuf Leila Kwame Ama "
    "Chidi Ngozi Sven Ingrid Anika Lars Rosa Tomás Lucía Nora Owen Grace Ruth Caleb Hannah Julian "
    "Zoe Miles Naomi Felix Iris Theo Clara Hugo Maya Ezra Ines Rafael Alma Dmitri Irina"
)

LAST_NAMES = _words(
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez "
    "Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris "
    "Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill "
    "Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Okafor Mensah "
    "Patel Sharma Chen Wang Tanaka Sato Kim Park Novak Kowalski Lindqvist Berg Haddad Khan Silva "
    "Costa Moreau Dubois Rossi Bianchi Murphy Kelly OBrien Fischer Weber"
)

EMAIL_DOMAINS = ("gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "fastmail.com")

# (city, region, postal prefix, area code)
CITIES = [
    ("Portland", "OR", "972", "503"), ("Seattle", "WA", "981", "206"), ("Denver", "CO", "802", "303"),
    ("Austin", "TX", "787", "512"), ("Chicago", "IL", "606", "312"), ("Atlanta", "GA", "303", "404"),
    ("Boston", "MA", "021", "617"), ("Minneapolis", "MN", "554", "612"), ("Phoenix", "AZ", "850", "602"),
    ("Raleigh", "NC", "276", "919"), ("Columbus", "OH", "432", "614"), ("San Diego", "CA", "921", "619"),
    ("Sacramento", "CA", "958", "916"), ("Nashville", "TN", "372", "615"), ("Madison", "WI", "537", "608"),
    ("Pittsburgh", "PA", "152", "412"), ("Salt Lake City", "UT", "841", "801"), ("Tampa", "FL", "336", "813"),
]

STREETS = (
    "Maple Ave", "Oak St", "Cedar Ln", "Pine St", "Elm St", "Washington Blvd", "Lakeview Dr",
    "Hillcrest Rd", "Park Ave", "River Rd", "Sunset Blvd", "Willow Way", "Highland Ave",
    "Chestnut St", "Meadow Ln", "Franklin St", "Spruce Ct", "Harbor View Dr",
)

CARRIERS = ("UPS", "FedEx", "USPS")
HUBS = ("Reno, NV", "Memphis, TN", "Louisville, KY", "Columbus, OH", "Dallas, TX", "Allentown, PA")
TECHNICIANS = ("Marco Reyes", "Dana Whitfield", "Sam Okoye", "Priya Natarajan", "Jonas Berg")

TICKET_TOPICS = [
    ("Where is my order?", "Customer asked for a delivery update."),
    ("Question about return", "Customer asked how to return an item."),
    ("Refund status", "Customer asked when the return refund arrives."),
    ("Change delivery address", "Customer wanted to change where the order ships."),
    ("Product question", "Customer asked about product dimensions and compatibility."),
    ("Promo code did not apply", "Customer said a promo code was not accepted at checkout."),
    ("Installation appointment", "Customer asked about the installation appointment."),
    ("Item arrived damaged", "Customer reported a damaged item in the delivery."),
]
