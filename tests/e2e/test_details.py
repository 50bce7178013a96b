#!/usr/bin/env python3
"""The details pane for one element of every AAS V2.0.1 type of the demo plant (machine
M-0001), the Blob's save action and "Go to target" of references.

The Blob's "Save to disk…" opens the native GTK save dialog, which WebDriver cannot
drive: the build for these tests (feature e2e-hooks) saves into AAS_BROWSER_SAVE_DIR
instead, and the file written is read back. The decoding and the file name rules are also tested in Rust
(crates/aas-app/src/content.rs, against the demo service)."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest

from app_driver import AppTestCase, row, screenshot

SHELL = "Machine_M0001"
AAS_ID = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001"
SM_PREFIX = "urn:demo-platform:acme:DEMO-01:sm:machine#M-0001"


class Details(AppTestCase):
    # Debug builds save here instead of asking (the native dialog cannot be driven).
    save_dir = tempfile.mkdtemp(prefix="aas-e2e-blob-")
    app_env = {"AAS_BROWSER_SAVE_DIR": save_dir}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.save_dir, ignore_errors=True)
    def fields(self):
        """Every field of the details pane: name -> the text shown."""
        return self.wd.script(
            "return Object.fromEntries([...document.querySelectorAll('#details dd')]"
            ".map((dd) => [dd.dataset.field, dd.innerText.trim()]))")

    def open(self, label):
        """Selects the row `label` and returns its details."""
        self.wd.click(self.wd.wait_for(row(label) + " .label"))
        self.wd.wait_for('#details dd[data-field="idShort"]', text=label)
        return self.fields()

    def toggle(self, label, expanded):
        """Expands (or collapses) row `label`, and waits until its children are loaded."""
        self.wd.click(self.wd.wait_for(row(label) + " .twisty"))
        self.wait_until(
            lambda: self.wd.script(
                "const li = document.querySelector(arguments[0]);"
                "return li?.getAttribute('aria-expanded') === arguments[1]"
                " && !li.querySelector('.spinner')", row(label), str(expanded).lower()),
            what=f"{label} expanded={expanded}")

    def key_rows(self, field):
        """The rows of a reference's key table: [type, local, idType, value]."""
        return self.wd.script(
            "return [...document.querySelectorAll(`#details dd[data-field='${arguments[0]}'] tbody tr`)]"
            ".map((tr) => [...tr.cells].map((td) => td.textContent))", field)

    def go_to_target(self, field):
        """Presses "Go to target" of reference `field` with the keyboard."""
        button = self.wd.wait_for(f'#details dd[data-field="{field}"] .field-action')
        self.assertEqual(self.wd.text(button), "Go to target")
        self.wd.script("arguments[0].focus()", {"element-6066-11e4-a52e-4f735466cecf": button})
        self.wd.keys(button, "\ue007")  # Enter

    def test_every_element_type(self):
        wd = self.wd
        wd.click(wd.wait_for('.chip[data-type="machine"]'))
        self.toggle(SHELL, True)
        aas = self.open(SHELL)
        self.assertEqual(aas["Identifier"], AAS_ID)
        self.assertEqual(aas["Model type"], "AssetAdministrationShell")
        self.assertIn("Submodel", aas["Contains"])

        # Submodel, MultiLanguageProperty with a language switch, collection.
        self.toggle("Nameplate", True)
        nameplate = self.open("Nameplate")
        self.assertEqual(nameplate["Identifier"], f"{SM_PREFIX}/Nameplate")
        self.assertEqual(nameplate["Administration"], "version 1, revision 0")
        self.assertEqual(nameplate["Kind"], "Instance")
        mlp = self.open("ManufacturerProductDesignation")
        self.assertEqual(mlp["Model type"], "MultiLanguageProperty")
        self.assertIn("CNC milling machine", mlp["Value"], "the OS language (en) first")
        wd.click(wd.wait_for('#details dd[data-field="Value"] .lang-switch button', text="de"))
        self.assertEqual(wd.text_content('#details dd[data-field="Value"] .lang-text'), "CNC-Fräsmaschine")
        wd.click(wd.wait_for('#details dd[data-field="Value"] .lang-switch button', text="en"))
        # An IRDI is named as the submodel templates publish it.
        self.assertEqual(mlp["Semantic ID"], "0173-1#02-AAW338#001")
        wd.wait_for('#details dd[data-field="Template name"]',
                    text="ManufacturerProductDesignation (Digital Nameplate 1.0, 2.0; Technical Data 1.2)")
        address = self.open("Address")
        self.assertEqual(address["Model type"], "SubmodelElementCollection")
        self.assertEqual(address["Contains"], "4 × Property")
        self.assertEqual(address["Ordered"], "no")
        self.assertEqual(address["Allows duplicates"], "no")
        self.assertEqual(address["Semantic ID"], "0173-1#02-AAQ832#005")
        self.toggle("Nameplate", False)

        # Property with an IEC 61360 data specification, Range, File.
        self.toggle("TechnicalData", True)
        self.toggle("TechnicalProperties", True)
        weight = self.open("Weight")
        self.assertEqual(weight["Model type"], "Property")
        self.assertEqual(weight["Value type"], "double")
        self.assertEqual(weight["Unit"], "kg")
        self.assertEqual(weight["Data type"], "REAL_MEASURE")
        self.assertIn("Weight", weight["Preferred name"])
        self.assertRegex(weight["Value"], r"^\d+(\.\d+)?$")
        ambient = self.open("AmbientTemperature")
        self.assertEqual(ambient["Model type"], "Range")
        self.assertRegex(ambient["Value"], r"^-?\d+(\.\d+)? – -?\d+(\.\d+)?$")
        self.assertEqual(ambient["Value type"], "double")
        self.toggle("GeneralInformation", True)
        image = self.open("ProductImage")
        self.assertEqual(image["MIME type"], "image/png")
        self.assertIn("/aasx/machine/M-0001/image.png", image["Path"])
        # It cannot be opened: said in words, why and what to do; the control there works.
        self.assertIn("A file inside the asset's AASX package: the AAS Master Data Access Service serves no files, "
                      "so this app cannot open or save it.", image["Path"])
        copy = wd.wait_for('#details dd[data-field="Path"] .field-action')
        self.assertEqual(wd.text(copy), "Copy path")
        wd.click(copy)
        self.wait_until(lambda: (wd.text_content('#details dd[data-field="Path"] .action-status') or "") == "Copied", 10,
                        lambda: wd.text_content('#details dd[data-field="Path"] .action-status'))
        pasted = subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True, text=True, timeout=10).stdout
        self.assertEqual(pasted, "/aasx/machine/M-0001/image.png")
        screenshot(os.path.join(self.out, "details-file.png"))
        self.toggle("TechnicalData", False)

        # Operational data: Blob, Operation, BasicEvent, ReferenceElement.
        self.toggle("OperationalData", True)
        blob = self.open("LastConfiguration")
        self.assertEqual(blob["MIME type"], "application/json")
        self.assertRegex(blob["Size"], r"^\d+ bytes")
        save = wd.wait_for('#details dd[data-field="Size"] .field-action')
        self.assertEqual(wd.text(save), "Save to disk…")
        # Saving refetches the Blob by its address and writes the decoded bytes.
        wd.click(save)
        self.wait_until(lambda: "Saved to" in (wd.text_content('#details dd[data-field="Size"]') or ""), 15,
                        lambda: wd.text_content('#details dd[data-field="Size"]'))
        with open(os.path.join(self.save_dir, "LastConfiguration.json")) as f:
            self.assertEqual(json.load(f)["program"], "P-M-0001")
        self.assertIsNone(wd.script("return document.querySelector('#details dd[data-field=\"Value\"]')"),
                          "the base64 text is not shown as a value")
        operation = self.open("RequestMaintenance")
        self.assertEqual(operation["Model type"], "Operation")
        self.assertEqual(operation["Input variables"].splitlines(),
                         ["Reason: Property (string)", "Priority: Property (int)"])
        self.assertEqual(operation["Output variables"], "TicketId: Property (string)")
        event = self.open("OperatingStateChanged")
        self.assertEqual(event["Model type"], "BasicEvent")
        self.assertEqual(self.key_rows("Observed"), [
            ["Submodel", "true", "IRI", f"{SM_PREFIX}/OperationalData"],
            ["MultiLanguageProperty", "true", "IdShort", "OperatingState"],
        ])
        self.go_to_target("Observed")
        state = self.wd.wait_for('#details dd[data-field="idShort"]', text="OperatingState")
        self.assertTrue(state)
        self.assertEqual(wd.script("return document.activeElement.dataset.label"), "OperatingState",
                         "the target row has the keyboard focus")
        reference = self.open("NameplateRef")
        self.assertEqual(reference["Model type"], "ReferenceElement")
        self.assertEqual(self.key_rows("Keys"), [["Submodel", "true", "IRI", f"{SM_PREFIX}/Nameplate"]])
        screenshot(os.path.join(self.out, "details-reference.png"))
        self.go_to_target("Keys")
        wd.wait_for('#details dd[data-field="idShort"]', text="Nameplate")
        self.assertEqual(self.fields()["Model type"], "Submodel")
        self.assertEqual(wd.script("return document.activeElement.dataset.label"), "Nameplate")
        self.assertEqual(wd.script(f"return document.querySelector('{row('Nameplate')}').getAttribute('aria-selected')"),
                         "true")
        self.toggle("OperationalData", False)

        # Bill of material: Entity, RelationshipElement, AnnotatedRelationshipElement;
        # a relationship's second key path leads into a nested entity.
        self.toggle("BillOfMaterial", True)
        self.toggle("EntryNode", True)
        entity = self.open("EntryNode")
        self.assertEqual(entity["Entity type"], "SelfManagedEntity")
        self.assertEqual(self.key_rows("Asset")[0][0], "Asset")
        self.assertEqual(entity["Contains"].splitlines(),
                         ["2 × Entity", "1 × RelationshipElement", "1 × AnnotatedRelationshipElement"])
        self.assertNotIn("Go to target", entity["Asset"], "the asset is not a node of the tree")
        relationship = self.open("HasPart01")
        self.assertEqual(relationship["Model type"], "RelationshipElement")
        self.assertEqual([k[3] for k in self.key_rows("First")], [f"{SM_PREFIX}/BillOfMaterial", "EntryNode"])
        self.assertEqual([k[3] for k in self.key_rows("Second")],
                         [f"{SM_PREFIX}/BillOfMaterial", "EntryNode", "MainSpindle"])
        annotated = self.open("HasPart02")
        self.assertEqual(annotated["Model type"], "AnnotatedRelationshipElement")
        self.assertEqual(annotated["Contains"], "1 × Property")
        self.assertEqual(self.key_rows("Second")[-1][3], "ServoDrive")
        self.go_to_target("Second")
        wd.wait_for('#details dd[data-field="idShort"]', text="ServoDrive")
        self.assertEqual(self.fields()["Entity type"], "CoManagedEntity")
        self.toggle("BillOfMaterial", False)

        # Capability.
        self.toggle("Capabilities", True)
        capability = self.open("Milling")
        self.assertEqual(capability["Model type"], "Capability")
        self.assertTrue(capability["Semantic ID"].endswith("/Capabilities/Milling/1/0"))

        # The raw tab shows the server's exact JSON of the selected element.
        wd.click(wd.wait_for("#tab-raw"))
        raw = json.loads(wd.script("return document.getElementById('raw-json').textContent"))
        self.assertEqual(raw["idShort"], "Milling")
        self.assertEqual(raw["modelType"], {"name": "Capability"})
        wd.click(wd.wait_for("#tab-details"))


if __name__ == "__main__":
    unittest.main()
