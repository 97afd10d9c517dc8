/** The 150 ADE20K / Places Challenge 2017 classes, in challenge order (class_001 = index 0). */
export const ADE20K_CLASS_NAMES: readonly string[] = Object.freeze([
  "wall", "building", "sky", "floor", "tree", "ceiling",
  "road", "bed", "windowpane", "grass", "cabinet", "sidewalk",
  "person", "earth", "door", "table", "mountain", "plant",
  "curtain", "chair", "car", "water", "painting", "sofa",
  "shelf", "house", "sea", "mirror", "rug", "field",
  "armchair", "seat", "fence", "desk", "rock", "wardrobe",
  "lamp", "bathtub", "railing", "cushion", "base", "box",
  "column", "signboard", "chest of drawers", "counter", "sand", "sink",
  "skyscraper", "fireplace", "refrigerator", "grandstand", "path", "stairs",
  "runway", "case", "pool table", "pillow", "screen door", "stairway",
  "river", "bridge", "bookcase", "blind", "coffee table", "toilet",
  "flower", "book", "hill", "bench", "countertop", "stove",
  "palm", "kitchen island", "computer", "swivel chair", "boat", "bar",
  "arcade machine", "hovel", "bus", "towel", "light", "truck",
  "tower", "chandelier", "awning", "streetlight", "booth", "television",
  "airplane", "dirt track", "apparel", "pole", "land", "bannister",
  "escalator", "ottoman", "bottle", "buffet", "poster", "stage",
  "van", "ship", "fountain", "conveyer belt", "canopy", "washer",
  "plaything", "swimming pool", "stool", "barrel", "basket", "waterfall",
  "tent", "bag", "minibike", "cradle", "oven", "ball",
  "food", "step", "tank", "trade name", "microwave", "pot",
  "animal", "bicycle", "lake", "dishwasher", "screen", "blanket",
  "sculpture", "hood", "sconce", "vase", "traffic light", "tray",
  "ashcan", "fan", "pier", "crt screen", "plate", "monitor",
  "bulletin board", "shower", "radiator", "glass", "clock", "flag",
]);

/** Number of classes of the challenge. */
export const ADE20K_CLASS_COUNT = 150;

/** `class_001` … `class_150`: the prediction folder and report row key of class `id` (1-based). */
export function classKey(id: number): string {
  return `class_${String(id).padStart(3, '0')}`;
}
