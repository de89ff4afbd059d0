"""Gold set for the answer parser: raw answers as real providers write them.

Written by hand from how OpenAI, Claude, Gemini, Qwen/DeepSeek (``<think>``) and local
Llama/Ollama models actually answer the card's prompt, BEFORE the parser was run on them.
Each entry records the names a PERSON reads in the answer, exactly as the parser should
return them, and the stored status a person would give the answer.

Conventions a grader applies (and the parser must too):
- Names keep their text as written: marker prefixes ("B: aorta", "Label 4: bronchus") stay,
  the scorer strips them. Markdown list syntax ("- ", "* ", "1. ", "2) ") is structure, not
  text; so are bold/italic marks and the description after a spaced dash or a colon.
- A draft (inside ``<think>`` or an earlier block the model then corrects) is never read.
- A cut entry at the end of a truncated answer is dropped; the finished names are kept.
- A plain-text decline with no names is ``refused``; an answer with names never is.
- ``markers`` pairs each name with the letter the answer's structure gives it (a labels object
  keyed by letter, a ``marker`` field, a table column), or is ``None`` when no letters are given.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GoldAnswer:
    id: str
    style: str
    raw: str
    names: tuple[str, ...]
    status: str = "ok"
    truncated: bool = False  # the provider reported the output limit (finish_reason=length)
    markers: tuple[str, ...] | None = None
    diagram_is: str | None = None  # checked only when given


GOLD: tuple[GoldAnswer, ...] = (
    # --- OpenAI: usually the bare JSON, sometimes fenced ---------------------------------
    GoldAnswer(
        "openai-plain",
        "openai",
        '{"diagram_is": "Human heart, anterior view", "labels": [{"name": "Aorta", '
        '"location_hint": "top centre"}, {"name": "Pulmonary trunk", "location_hint": "upper '
        'middle"}, {"name": "Left ventricle", "location_hint": "lower right"}]}',
        ("Aorta", "Pulmonary trunk", "Left ventricle"),
        diagram_is="Human heart, anterior view",
    ),
    GoldAnswer(
        "openai-indented",
        "openai",
        """{
  "diagram_is": "Animal cell",
  "labels": [
    {"name": "Nucleus", "location_hint": "centre"},
    {"name": "Rough endoplasmic reticulum", "location_hint": "around the nucleus"},
    {"name": "Mitochondrion", "location_hint": "lower left"}
  ]
}""",
        ("Nucleus", "Rough endoplasmic reticulum", "Mitochondrion"),
        diagram_is="Animal cell",
    ),
    GoldAnswer(
        "openai-fenced",
        "openai",
        """```json
{
  "diagram_is": "Cross-section of a leaf",
  "labels": [
    {"name": "Upper epidermis", "location_hint": "top layer"},
    {"name": "Palisade mesophyll", "location_hint": "below the upper epidermis"},
    {"name": "Stoma", "location_hint": "bottom surface"}
  ]
}
```""",
        ("Upper epidermis", "Palisade mesophyll", "Stoma"),
    ),
    GoldAnswer(
        "openai-empty-list",
        "openai",
        '{"diagram_is": "A blank outline with no visible leader lines", "labels": []}',
        (),
    ),
    GoldAnswer(
        "openai-trailing-commas",
        "openai",
        '{"diagram_is": "Nephron", "labels": [{"name": "Glomerulus", "location_hint": "top",},'
        ' {"name": "Loop of Henle", "location_hint": "bottom",},],}',
        ("Glomerulus", "Loop of Henle"),
    ),
    GoldAnswer(
        "openai-hedged-names",
        "openai",
        '{"diagram_is": "Human heart", "labels": [{"name": "left/right atrium", '
        '"location_hint": "top"}, {"name": "Aorta (possibly pulmonary trunk)", '
        '"location_hint": "top centre"}]}',
        ("left/right atrium", "Aorta (possibly pulmonary trunk)"),
    ),
    GoldAnswer(
        "openai-marker-prefixes-kept",
        "openai",
        '{"diagram_is": "Sarcomere", "labels": [{"name": "A: A band", "location_hint": "A"}, '
        '{"name": "B: Z line", "location_hint": "B"}, {"name": "C: H zone", '
        '"location_hint": "C"}]}',
        ("A: A band", "B: Z line", "C: H zone"),
    ),
    GoldAnswer(
        "openai-raw-newline-in-string",
        "openai",
        '{"diagram_is": "Human\neye", "labels": [{"name": "Cornea\t", "location_hint": "front"}]}',
        ("Cornea",),
    ),
    # --- Claude: prose around a fenced block ----------------------------------------------
    GoldAnswer(
        "claude-prose-fence",
        "claude",
        """Looking at this diagram, I can see a cross-section of the human heart with several \
leader lines pointing to its chambers and vessels.

```json
{
  "diagram_is": "Cross-section of the human heart",
  "labels": [
    {"name": "Superior vena cava", "location_hint": "upper left"},
    {"name": "Right atrium", "location_hint": "left middle"},
    {"name": "Tricuspid valve", "location_hint": "between right atrium and right ventricle"}
  ]
}
```

The diagram follows the standard anterior-view convention, so the patient's right is on the \
viewer's left.""",
        ("Superior vena cava", "Right atrium", "Tricuspid valve"),
    ),
    GoldAnswer(
        "claude-braces-in-prose",
        "claude",
        """I'll identify each structure {as requested}. Note that the set {A, B} is ambiguous.

{"diagram_is": "Flower (longitudinal section)", "labels": [{"name": "Stigma", \
"location_hint": "top"}, {"name": "Style", "location_hint": "below the stigma"}, \
{"name": "Ovary", "location_hint": "base"}]}""",
        ("Stigma", "Style", "Ovary"),
    ),
    GoldAnswer(
        "claude-answer-tags",
        "claude",
        """<answer>
{"diagram_is": "Human ear", "labels": [{"name": "Tympanic membrane", "location_hint": \
"middle"}, {"name": "Cochlea", "location_hint": "right"}, {"name": "Auditory tube", \
"location_hint": "lower middle"}]}
</answer>""",
        ("Tympanic membrane", "Cochlea", "Auditory tube"),
    ),
    GoldAnswer(
        "claude-refusal-cannot-see",
        "claude",
        "I can't see an image attached to your message. Could you please share the diagram "
        "you'd like me to label?",
        (),
        status="refused",
    ),
    GoldAnswer(
        "claude-refusal-unable",
        "claude",
        "I'm unable to identify the structures in this image with any confidence: the "
        "leader lines are too faint to follow.",
        (),
        status="refused",
    ),
    GoldAnswer(
        "claude-hedge-with-names",
        "claude",
        """I can't be completely certain about every structure, since the image is low \
resolution, but here is my best reading:

```json
{"diagram_is": "Human brain, sagittal section", "labels": [{"name": "Corpus callosum", \
"location_hint": "centre"}, {"name": "Cerebellum", "location_hint": "lower back"}]}
```""",
        ("Corpus callosum", "Cerebellum"),
    ),
    GoldAnswer(
        "claude-draft-then-correction",
        "claude",
        """```json
{"diagram_is": "Human heart", "labels": [{"name": "Aorta", "location_hint": "top"}, \
{"name": "Left atrium", "location_hint": "right"}]}
```

Wait — looking again, the structure on the right is the left auricle, not the whole atrium, \
and I missed the pulmonary trunk. Corrected answer:

```json
{"diagram_is": "Human heart", "labels": [{"name": "Aorta", "location_hint": "top"}, \
{"name": "Left auricle", "location_hint": "right"}, {"name": "Pulmonary trunk", \
"location_hint": "upper middle"}]}
```""",
        ("Aorta", "Left auricle", "Pulmonary trunk"),
    ),
    GoldAnswer(
        "claude-nested-answer-object",
        "claude",
        '{"answer": {"diagram_is": "Bacterial cell", "labels": [{"name": "Flagellum", '
        '"location_hint": "right"}, {"name": "Plasmid", "location_hint": "centre"}]}}',
        ("Flagellum", "Plasmid"),
    ),
    # --- Gemini: fenced, sometimes alternative keys ----------------------------------------
    GoldAnswer(
        "gemini-fenced-no-lang",
        "gemini",
        """```
{"diagram_is": "Neuron", "labels": [{"name": "Dendrite", "location_hint": "left"}, \
{"name": "Axon hillock", "location_hint": "middle"}, {"name": "Myelin sheath", \
"location_hint": "right"}]}
```""",
        ("Dendrite", "Axon hillock", "Myelin sheath"),
    ),
    GoldAnswer(
        "gemini-label-key",
        "gemini",
        """```json
{
  "diagram_is": "Plant cell",
  "labels": [
    {"label": "Cell wall", "location": "outer boundary"},
    {"label": "Chloroplast", "location": "upper right"},
    {"label": "Central vacuole", "location": "centre"}
  ]
}
```""",
        ("Cell wall", "Chloroplast", "Central vacuole"),
    ),
    GoldAnswer(
        "gemini-term-key",
        "gemini",
        '{"diagram_is": "Human skeleton (upper limb)", "labels": [{"term": "Humerus", '
        '"location_hint": "upper arm"}, {"term": "Radius", "location_hint": "forearm, thumb '
        'side"}, {"term": "Ulna", "location_hint": "forearm, little-finger side"}]}',
        ("Humerus", "Radius", "Ulna"),
    ),
    GoldAnswer(
        "gemini-part-key",
        "gemini",
        '{"diagram_is": "Insect body plan", "labels": [{"part": "Head"}, {"part": "Thorax"},'
        ' {"part": "Abdomen"}, {"part": "Compound eye"}]}',
        ("Head", "Thorax", "Abdomen", "Compound eye"),
    ),
    GoldAnswer(
        "gemini-labels-keyed-by-marker",
        "gemini",
        """```json
{
  "diagram_is": "Eukaryotic cell with lettered markers",
  "labels": {
    "A": "Nucleolus",
    "B": "Golgi apparatus",
    "C": "Lysosome"
  }
}
```""",
        ("Nucleolus", "Golgi apparatus", "Lysosome"),
        markers=("A", "B", "C"),
    ),
    GoldAnswer(
        "gemini-keyed-objects",
        "gemini",
        '{"diagram_is": "Human eye", "labels": {"A": {"name": "Iris", "location_hint": "front"},'
        ' "B": {"name": "Lens", "location_hint": "behind the iris"}, "C": {"name": "Optic '
        'nerve", "location_hint": "back"}}}',
        ("Iris", "Lens", "Optic nerve"),
        markers=("A", "B", "C"),
    ),
    GoldAnswer(
        "gemini-marker-field",
        "gemini",
        '{"diagram_is": "Sarcomere", "labels": [{"marker": "A", "name": "I band"}, '
        '{"marker": "B", "name": "M line"}, {"marker": "C", "name": "Titin"}]}',
        ("I band", "M line", "Titin"),
        markers=("A", "B", "C"),
    ),
    GoldAnswer(
        "gemini-bare-array-objects",
        "gemini",
        '[{"name": "Epidermis", "location_hint": "top"}, {"name": "Dermis", "location_hint": '
        '"middle"}, {"name": "Hypodermis", "location_hint": "bottom"}]',
        ("Epidermis", "Dermis", "Hypodermis"),
    ),
    GoldAnswer(
        "gemini-bare-array-strings",
        "gemini",
        '```json\n["Stamen", "Anther", "Filament", "Petal", "Sepal"]\n```',
        ("Stamen", "Anther", "Filament", "Petal", "Sepal"),
    ),
    GoldAnswer(
        "gemini-labels-strings",
        "gemini",
        '{"diagram_is": "DNA double helix", "labels": ["Sugar-phosphate backbone", '
        '"Base pair", "Hydrogen bond"]}',
        ("Sugar-phosphate backbone", "Base pair", "Hydrogen bond"),
    ),
    GoldAnswer(
        "gemini-url-in-string-with-comment",
        "gemini",
        """{
  "diagram_is": "Chloroplast",  // see https://example.org/chloroplast
  "labels": [
    {"name": "Thylakoid", "location_hint": "stacks, see http://x.org/a"},
    {"name": "Stroma", "location_hint": "surrounding fluid"}
  ]
}""",
        ("Thylakoid", "Stroma"),
        diagram_is="Chloroplast",
    ),
    # --- Qwen / DeepSeek: reasoning in <think> --------------------------------------------
    GoldAnswer(
        "qwen-think-then-json",
        "qwen",
        """<think>
The user wants JSON. The diagram looks like a heart. Let me draft:
{"diagram_is": "heart", "labels": [{"name": "Aorta"}, {"name": "Vena cava"}]}
Hmm, the vessel at the top left is the superior vena cava specifically. Let me fix.
</think>

{"diagram_is": "Human heart", "labels": [{"name": "Aorta", "location_hint": "top"}, \
{"name": "Superior vena cava", "location_hint": "top left"}]}""",
        ("Aorta", "Superior vena cava"),
    ),
    GoldAnswer(
        "deepseek-think-then-fenced",
        "deepseek",
        """<think>
Okay, so I need to label this diagram. It shows a kidney in section. The outer layer is \
the renal cortex, then the medulla with pyramids. Draft:
```json
{"labels": [{"name": "cortex"}, {"name": "medulla"}]}
```
I should be more specific and include the renal pelvis.
</think>

```json
{
  "diagram_is": "Kidney, coronal section",
  "labels": [
    {"name": "Renal cortex", "location_hint": "outer layer"},
    {"name": "Renal pyramid", "location_hint": "middle"},
    {"name": "Renal pelvis", "location_hint": "inner, near the hilum"}
  ]
}
```""",
        ("Renal cortex", "Renal pyramid", "Renal pelvis"),
    ),
    GoldAnswer(
        "qwen-close-tag-only",
        "qwen",
        """The image shows a mitochondrion. Draft: ["matrix", "cristae"]. I should use the \
JSON shape requested.
</think>
{"diagram_is": "Mitochondrion", "labels": [{"name": "Outer membrane"}, {"name": "Inner \
membrane"}, {"name": "Crista"}, {"name": "Matrix"}]}""",
        ("Outer membrane", "Inner membrane", "Crista", "Matrix"),
    ),
    GoldAnswer(
        "deepseek-think-unclosed-cut",
        "deepseek",
        """<think>
Let me carefully look at each arrow. Arrow 1 points to the trachea. Arrow 2 points to the \
left main bronchus. My draft answer: {"labels": [{"name": "Trachea"}, {"name": "Left main \
bronchus"}""",
        (),
        status="truncated",
        truncated=True,
    ),
    GoldAnswer(
        "qwen-think-only-draft",
        "qwen",
        """<think>
{"diagram_is": "heart", "labels": [{"name": "Aorta"}]}
</think>

I could not finish a confident answer.""",
        (),
        status="refused",
    ),
    GoldAnswer(
        "qwen-python-literal",
        "qwen",
        """{'diagram_is': 'Human digestive system', 'labels': [{'name': 'Oesophagus', \
'location_hint': 'upper centre'}, {'name': 'Stomach', 'location_hint': None}, \
{'name': "Peyer's patches", 'location_hint': 'small intestine'}]}""",
        ("Oesophagus", "Stomach", "Peyer's patches"),
    ),
    GoldAnswer(
        "qwen-python-escaped-quote",
        "qwen",
        "{'diagram_is': 'Nephron', 'labels': [{'name': 'Bowman\\'s capsule'}, "
        "{'name': 'Loop of Henle'}], 'confident': True}",
        ("Bowman's capsule", "Loop of Henle"),
    ),
    # --- Llama / Ollama local models: chatty, lists, tables, comments ----------------------
    GoldAnswer(
        "llama-chatty-fence",
        "llama",
        """Here is the labeled diagram in JSON format:

```
{
  "diagram_is": "Human respiratory system",
  "labels": [
    {"name": "Trachea", "location_hint": "centre top"},
    {"name": "Bronchus", "location_hint": "branching from trachea"},
    {"name": "Alveoli", "location_hint": "ends of bronchioles"}
  ]
}
```

Let me know if you need anything else!""",
        ("Trachea", "Bronchus", "Alveoli"),
    ),
    GoldAnswer(
        "llama-unquoted-keys",
        "llama",
        """{diagram_is: "Frog anatomy", labels: [{name: "Liver", location_hint: "upper"}, \
{name: "Cloaca", location_hint: "bottom"}]}""",
        ("Liver", "Cloaca"),
    ),
    GoldAnswer(
        "llama-line-comments",
        "llama",
        """```json
{
  "diagram_is": "Human heart",
  "labels": [
    {"name": "Aorta", "location_hint": "top"}, // the big arch
    {"name": "Right ventricle", "location_hint": "lower left"}, // front chamber
    // I am not sure about the next one
    {"name": "Interventricular septum", "location_hint": "middle"}
  ]
}
```""",
        ("Aorta", "Right ventricle", "Interventricular septum"),
    ),
    GoldAnswer(
        "llama-block-comment",
        "llama",
        """{
  /* answer below */
  "diagram_is": "Flower",
  "labels": [{"name": "Receptacle" /* base */}, {"name": "Carpel"}]
}""",
        ("Receptacle", "Carpel"),
    ),
    GoldAnswer(
        "ollama-json-lines",
        "ollama",
        """{"name": "Cerebrum", "location_hint": "top"}
{"name": "Brainstem", "location_hint": "bottom"}
{"name": "Pons", "location_hint": "front of brainstem"}""",
        ("Cerebrum", "Brainstem", "Pons"),
    ),
    GoldAnswer(
        "llama-numbered-list",
        "llama",
        """Sure! Here are the labeled parts of the diagram:

1. Aorta
2. Pulmonary artery
3. Left atrium
4. Right ventricle""",
        ("Aorta", "Pulmonary artery", "Left atrium", "Right ventricle"),
    ),
    GoldAnswer(
        "llama-numbered-bold-descriptions",
        "llama",
        """The diagram depicts a human eye. The labeled structures are:

1. **Cornea**: the clear front surface of the eye
2. **Iris** - the coloured ring around the pupil
3. **Retina** – the light-sensitive layer at the back
4) **Optic nerve** — carries signals to the brain""",
        ("Cornea", "Iris", "Retina", "Optic nerve"),
    ),
    GoldAnswer(
        "llama-bullets-with-markers",
        "llama",
        """Based on the image, here are the labels:

- A: Nucleus
- B: Pulmonary artery
* C: Left atrium
+ D: Mitral valve""",
        ("A: Nucleus", "B: Pulmonary artery", "C: Left atrium", "D: Mitral valve"),
    ),
    GoldAnswer(
        "llama-bold-marker-bullets",
        "llama",
        """**Diagram:** Human heart

**Labels:**
- **B: Pulmonary artery** – carries blood to the lungs
- **E) Mitochondria**
- **Label 4: Bronchus**""",
        ("B: Pulmonary artery", "E) Mitochondria", "Label 4: Bronchus"),
    ),
    GoldAnswer(
        "llama-nested-bullets-headings",
        "llama",
        """## Labeled structures

### Chambers:
- Right atrium
- Left ventricle

### Vessels:
- Aorta
- Pulmonary vein""",
        ("Right atrium", "Left ventricle", "Aorta", "Pulmonary vein"),
    ),
    GoldAnswer(
        "llama-markdown-table",
        "llama",
        """Here is a table of the labeled parts:

| Label | Structure | Location |
|-------|-----------|----------|
| A | Epiglottis | top |
| B | Larynx | below the epiglottis |
| C | Trachea | centre |""",
        ("Epiglottis", "Larynx", "Trachea"),
        markers=("A", "B", "C"),
    ),
    GoldAnswer(
        "llama-table-numbered",
        "llama",
        """| # | Name | Where |
|---|------|-------|
| 1 | **Femur** | thigh |
| 2 | Patella | knee |
| 3 | Tibia | shin |""",
        ("Femur", "Patella", "Tibia"),
    ),
    GoldAnswer(
        "llama-plain-marker-lines",
        "llama",
        """A: Cell membrane
B: Cytoplasm
C: Ribosome""",
        ("A: Cell membrane", "B: Cytoplasm", "C: Ribosome"),
    ),
    GoldAnswer(
        "llama-label-n-lines",
        "llama",
        """Label 1: Sclera
Label 2: Choroid
Label 3: Fovea""",
        ("Label 1: Sclera", "Label 2: Choroid", "Label 3: Fovea"),
    ),
    GoldAnswer(
        "llama-labels-comma-line",
        "llama",
        "Diagram: a dicot root in cross-section.\nLabels: epidermis, cortex, endodermis, "
        "pericycle, xylem and phloem",
        ("epidermis", "cortex", "endodermis", "pericycle", "xylem", "phloem"),
    ),
    GoldAnswer(
        "ollama-numbered-hedge",
        "ollama",
        """I'm not 100% sure, but I think these are:
1. Stomach or duodenum
2. Liver
3. Gall bladder (?)""",
        ("Stomach or duodenum", "Liver", "Gall bladder (?)"),
    ),
    GoldAnswer(
        "llama-list-bracket-hint",
        "llama",
        """- Aorta [top]
- Left ventricle [lower right]""",
        ("Aorta", "Left ventricle"),
    ),
    GoldAnswer(
        "llama-refusal-sorry",
        "llama",
        "Sorry, I cannot help with that.",
        (),
        status="refused",
    ),
    GoldAnswer(
        "ollama-refusal-no-image",
        "ollama",
        "I'm sorry, but as a text-based AI I am not able to view images. If you describe the "
        "diagram, I can try to help identify its parts.",
        (),
        status="refused",
    ),
    GoldAnswer(
        "openai-refusal-apologize",
        "openai",
        "I apologize, but I can't assist with identifying the parts of this image.",
        (),
        status="refused",
    ),
    GoldAnswer(
        "prose-no-names",
        "gemini",
        "This appears to be a diagram of the human heart seen from the front.",
        (),
        status="parse_error",
    ),
    GoldAnswer(
        "json-without-labels",
        "openai",
        '{"diagram_is": "Human heart"}',
        (),
        status="parse_error",
    ),
    # --- Truncated answers (finish_reason=length) ------------------------------------------
    GoldAnswer(
        "truncated-objects",
        "openai",
        '{"diagram_is": "Human skull", "labels": [{"name": "Frontal bone", "location_hint": '
        '"forehead"}, {"name": "Parietal bone", "location_hint": "top"}, {"name": "Tempo',
        ("Frontal bone", "Parietal bone"),
        status="truncated",
        truncated=True,
    ),
    GoldAnswer(
        "truncated-strings",
        "gemini",
        '```json\n{"diagram_is": "Flower", "labels": ["Petal", "Sepal", "Anth',
        ("Petal", "Sepal"),
        status="truncated",
        truncated=True,
    ),
    GoldAnswer(
        "truncated-after-hint",
        "claude",
        '{"diagram_is": "Leaf", "labels": [{"name": "Midrib", "location_hint": "centre"}, '
        '{"name": "Petiole", "location_hint": "bott',
        ("Midrib",),
        status="truncated",
        truncated=True,
    ),
    GoldAnswer(
        "truncated-bare-array",
        "llama",
        '["Scapula", "Clavicle", "Sternum", "Ri',
        ("Scapula", "Clavicle", "Sternum"),
        status="truncated",
        truncated=True,
    ),
    GoldAnswer(
        "truncated-keyed-object",
        "gemini",
        '{"labels": {"A": "Cilia", "B": "Pellicle", "C": "Contractile vac',
        ("Cilia", "Pellicle"),
        status="truncated",
        truncated=True,
        markers=("A", "B"),
    ),
    GoldAnswer(
        "truncated-numbered-list",
        "llama",
        "Here are the parts:\n1. Radius\n2. Ulna\n3. Carp",
        ("Radius", "Ulna"),
        status="truncated",
        truncated=True,
    ),
    GoldAnswer(
        "cut-without-length-flag",
        "ollama",
        '{"diagram_is": "Heart", "labels": [{"name": "Aorta"}, {"name": "Pulmonary vein"}, '
        '{"name": "Left at',
        ("Aorta", "Pulmonary vein"),
    ),
    # --- Hostile or broken text -----------------------------------------------------------
    GoldAnswer(
        "lone-surrogate-in-one-name",
        "ollama",
        '{"diagram_is": "Human heart", "labels": [{"name": "Aorta"}, {"name": "Left \ud83d '
        'atrium"}, {"name": "Right ventricle"}]}',
        ("Aorta", "Right ventricle"),
    ),
    GoldAnswer(
        "escaped-lone-surrogate",
        "ollama",
        '{"diagram_is": "Human heart", "labels": [{"name": "Aorta\\udc80"}, '
        '{"name": "Mitral valve"}, {"name": "Caf\\u00e9 \\ud83d\\ude00 valve"}]}',
        ("Mitral valve", "Café \U0001f600 valve"),
    ),
    GoldAnswer(
        "braces-flood",
        "hostile",
        "{" * 20_000,
        (),
        status="parse_error",
    ),
    GoldAnswer(
        "deep-nesting-then-answer",
        "hostile",
        "[" * 5_000 + "]" * 5_000 + '\n{"diagram_is": "Heart", "labels": [{"name": "Aorta"}]}',
        ("Aorta",),
    ),
    GoldAnswer(
        "malformed-entry-skipped",
        "ollama",
        '{"diagram_is": "Cell", "labels": [{"name": "Nucleus"}, 7, {"hint": "left"}, '
        '{"name": null}, {"name": "Vacuole"}]}',
        ("Nucleus", "Vacuole"),
    ),
    GoldAnswer(
        "schema-echo-then-answer",
        "ollama",
        """You asked for this shape:
{
  "diagram_is": "<what the whole diagram depicts>",
  "labels": [ {"name": "<term>", "location_hint": "<where in image>"} ]
}
My answer:
{"diagram_is": "Earthworm", "labels": [{"name": "Clitellum", "location_hint": "front third"}]}""",
        ("Clitellum",),
    ),
    # --- Added in a second writing pass (still before running the parser on them) ---------
    GoldAnswer(
        "llama-dash-marker-bold",
        "llama",
        """Based on the image:

1. **A - Aorta**
2. **B - Pulmonary artery**
3. **C - Left atrium**""",
        ("A - Aorta", "B - Pulmonary artery", "C - Left atrium"),
    ),
    GoldAnswer(
        "ollama-missing-commas",
        "ollama",
        """Here is the JSON:
{
"diagram_is": "Plant cell",
"labels": [
{"name": "Cell wall", "location_hint": "outside"}
{"name": "Chloroplast", "location_hint": "left"}
{"name": "Vacuole", "location_hint": "centre"}
]
}""",
        ("Cell wall", "Chloroplast", "Vacuole"),
    ),
    GoldAnswer(
        "claude-marker-table",
        "claude",
        """I've identified each lettered structure:

| Marker | Structure | Description |
|:---:|:---|:---|
| A | Sarcolemma | outer membrane of the fibre |
| B | Myofibril | bundle inside the fibre |
| C | T tubule | invagination of the membrane |""",
        ("Sarcolemma", "Myofibril", "T tubule"),
        markers=("A", "B", "C"),
    ),
    GoldAnswer(
        "gemini-numbered-keys",
        "gemini",
        '{"diagram_is": "Tooth, longitudinal section", "labels": {"1": "Enamel", "2": "Dentine",'
        ' "3": "Pulp cavity", "4": "Cementum"}}',
        ("Enamel", "Dentine", "Pulp cavity", "Cementum"),
        markers=("1", "2", "3", "4"),
    ),
    GoldAnswer(
        "qwen-think-then-answer-tags",
        "qwen",
        """<think>
The figure is a neuron. Arrow at the top: dendrites. The long process: axon.
</think>
<answer>
```json
{"diagram_is": "Motor neuron", "labels": [{"name": "Dendrites"}, {"name": "Axon"}, \
{"name": "Node of Ranvier"}]}
```
</answer>""",
        ("Dendrites", "Axon", "Node of Ranvier"),
    ),
    GoldAnswer(
        "llama-lettered-lines",
        "llama",
        """A. Nucleus
B. Nuclear envelope
C. Nucleolus""",
        ("A. Nucleus", "B. Nuclear envelope", "C. Nucleolus"),
    ),
    GoldAnswer(
        "openai-unicode-names",
        "openai",
        '{"diagram_is": "Eye", "labels": [{"name": "Müller cell"}, {"name": "Schlemm\u2019s '
        'canal"}, {"name": "Bruch\u2019s membrane"}]}',
        ("Müller cell", "Schlemm\u2019s canal", "Bruch\u2019s membrane"),
    ),
    GoldAnswer(
        "gemini-refusal-safety-text",
        "gemini",
        "I'm not able to help with that request.",
        (),
        status="refused",
    ),
    GoldAnswer(
        "deepseek-answer-then-extra-json",
        "deepseek",
        """{"diagram_is": "Ear", "labels": [{"name": "Pinna"}, {"name": "Ear canal"}, \
{"name": "Malleus"}]}

Confidence per label: {"Pinna": 0.9, "Ear canal": 0.8, "Malleus": 0.6}""",
        ("Pinna", "Ear canal", "Malleus"),
    ),
    GoldAnswer(
        "truncated-python-literal",
        "qwen",
        "{'diagram_is': 'Flower', 'labels': [{'name': 'Stigma'}, {'name': 'Style'}, {'name': 'Ova",
        ("Stigma", "Style"),
        status="truncated",
        truncated=True,
    ),
    GoldAnswer(
        "llama-bullets-then-closing-prose",
        "llama",
        """* Femur – the thigh bone
* Tibia – the shin bone
* Fibula

Note: the patella was not labelled in this diagram.""",
        ("Femur", "Tibia", "Fibula"),
    ),
    GoldAnswer(
        "empty-text",
        "openai",
        "   \n  ",
        (),
        status="parse_error",
    ),
)
