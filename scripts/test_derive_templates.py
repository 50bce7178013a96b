#!/usr/bin/env python3
"""Tests of scripts/derive-templates.py's reading of template elements:
python3 scripts/test_derive_templates.py"""

import contextlib
import importlib.util
import io
import json
import os
import unittest

spec = importlib.util.spec_from_file_location(
    "derive", os.path.join(os.path.dirname(__file__), "derive-templates.py")
)
derive = importlib.util.module_from_spec(spec)
spec.loader.exec_module(derive)


def qualifier(name, value, kind=None):
    q = {"type": name, "valueType": "xs:string", "value": value}
    if kind:
        q["kind"] = kind
    return q


class Elements(unittest.TestCase):
    def test_every_qualifier_name_and_kind_gives_the_cardinality(self):
        for name, kind in [
            ("SMT/Cardinality", "TemplateQualifier"),
            ("Cardinality", None),
            ("Multiplicity", "ConceptQualifier"),
        ]:
            e = {"idShort": "A", "modelType": "Property", "qualifiers": [qualifier(name, "OneToMany", kind)]}
            self.assertEqual(derive.element(e, "t")["cardinality"], "OneToMany", name)

    def test_when_names_disagree_the_newest_wins_and_says_so(self):
        e = {
            "idShort": "A",
            "modelType": "Property",
            "qualifiers": [qualifier("Multiplicity", "One"), qualifier("SMT/Cardinality", "ZeroToOne")],
        }
        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            self.assertEqual(derive.element(e, "t")["cardinality"], "ZeroToOne")
        self.assertIn("disagree", said.getvalue())

    def test_no_qualifier_leaves_the_cardinality_out(self):
        self.assertNotIn("cardinality", derive.element({"idShort": "A", "modelType": "File"}, "t"))

    def test_v2_and_v3_shapes_read_alike(self):
        v2 = {
            "idShort": "Date",
            "modelType": {"name": "Property"},
            "valueType": {"dataObjectType": {"name": "date"}},
            "semanticId": {"keys": [{"type": "ConceptDescription", "idType": "IRDI", "value": " 0173-1#02-AAR972#002 "}]},
            "qualifiers": [{"modelType": {"name": "Qualifier"}, "type": "Multiplicity", "value": "ZeroToOne"}],
        }
        v3 = {
            "idShort": "Date",
            "modelType": "Property",
            "valueType": "xs:date",
            "semanticId": {"type": "ExternalReference", "keys": [{"type": "GlobalReference", "value": "0173-1#02-AAR972#002"}]},
            "qualifiers": [qualifier("SMT/Cardinality", "ZeroToOne", "TemplateQualifier")],
        }
        self.assertEqual(derive.element(v2, "t"), derive.element(v3, "t"))

    def test_arbitrary_elements_are_marked_and_not_followed(self):
        e = {
            "idShort": "Section",
            "modelType": "SubmodelElementCollection",
            "semanticId": {"keys": [{"type": "GlobalReference", "value": "https://admin-shell.io/SMT/General/Arbitrary"}]},
            "value": [{"idShort": "X", "modelType": "Property"}],
        }
        read = derive.element(e, "t")
        self.assertTrue(read["arbitrary"])
        self.assertNotIn("elements", read)
        self.assertTrue(derive.element({"idShort": "ID___arbitrary1__", "modelType": "Property"}, "t")["arbitrary"])

    def test_a_list_item_has_no_id_short_and_the_file_reads_back(self):
        sml = {
            "idShort": "Markings",
            "modelType": "SubmodelElementList",
            "value": [{"modelType": "SubmodelElementCollection", "value": [{"idShort": "N", "modelType": "Property"}]}],
        }
        read = derive.element(sml, "t")
        self.assertNotIn("id_short", read["elements"][0])
        template = {"format": "f", "name": "n", "elements": [read]}
        self.assertEqual(json.loads(derive.dump(template)), template)


if __name__ == "__main__":
    unittest.main()
