"""KiCad's side of the board generator: run by Debian's /usr/bin/python3, where KiCad 6's
`pcbnew` module imports (the project's own Python cannot load it).

It knows nothing of bgboard: every fact (outline, parts, positions, nets, tracks) comes in
as one JSON object on stdin, and what KiCad says goes back as one JSON object into the file named after the
command.
Commands (argv[1]):

- `pads`: place the parts and report every pad (position, size, shape, copper layers,
  drill) and every part's courtyard, in the board's own coordinates;
- `build`: make the whole board (parts, nets, tracks, vias, filled zones, rules), save the
  .kicad_pcb and .kicad_pro, plot the Gerbers and the Excellon drill files, run KiCad's
  DRC on the saved file and report its findings;
- `drc`: KiCad's DRC on a saved .kicad_pcb;
- `read`: a saved .kicad_pcb's pads with their nets, its outline and its holes.

Board coordinates are millimetres, x to the right and y up, the origin at the board's
lower-left corner; on KiCad's page the board's lower-left corner sits at ORIGIN (y down),
which is also the auxiliary origin the fabrication files are written from.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile

from typing import Any

import pcbnew

#: a JSON object as it comes in and goes out: pcbnew is untyped, and the project's side
#: (hardware/design/pcb/kicad.py) reads every answer into typed values
Json = dict[str, Any]

ORIGIN = (50.0, 250.0)           # the board's lower-left corner on KiCad's page, mm
LIBRARIES = os.environ.get("KICAD6_FOOTPRINT_DIR", "/usr/share/kicad/footprints")
COPPER = {"F.Cu": pcbnew.F_Cu, "B.Cu": pcbnew.B_Cu}
GERBERS = (("F_Cu", pcbnew.F_Cu), ("B_Cu", pcbnew.B_Cu), ("F_Mask", pcbnew.F_Mask),
           ("B_Mask", pcbnew.B_Mask), ("F_Silkscreen", pcbnew.F_SilkS),
           ("B_Silkscreen", pcbnew.B_SilkS), ("F_Paste", pcbnew.F_Paste),
           ("B_Paste", pcbnew.B_Paste), ("Edge_Cuts", pcbnew.Edge_Cuts))


def mm(value: float) -> int:
    return int(round(value * 1e6))


def to_page(x: float, y: float) -> pcbnew.wxPoint:
    return pcbnew.wxPoint(mm(ORIGIN[0] + x), mm(ORIGIN[1] - y))


def from_page(point: pcbnew.wxPoint) -> tuple[float, float]:
    return round(point.x / 1e6 - ORIGIN[0], 6), round(ORIGIN[1] - point.y / 1e6, 6)


_LOADED: dict[str, pcbnew.FOOTPRINT] = {}


def load_footprint(name: str) -> pcbnew.FOOTPRINT:
    """A new copy of a library footprint (each loaded once: KiCad reads the whole library
    folder at every load)."""
    if name not in _LOADED:
        library, _, footprint = name.partition(":")
        fp = pcbnew.FootprintLoad(os.path.join(LIBRARIES, library + ".pretty"), footprint)
        if fp is None:
            raise SystemExit(f"KiCad has no footprint {name} in {LIBRARIES}")
        _LOADED[name] = fp
    return pcbnew.Cast_to_FOOTPRINT(_LOADED[name].Duplicate())


def place(board: pcbnew.BOARD, part: Json) -> pcbnew.FOOTPRINT:
    """A footprint from KiCad's library at its place: rotated, then turned over onto the
    bottom for a part mounted from below (mirrored top to bottom about its origin)."""
    fp = load_footprint(part["footprint"])
    library, _, name = part["footprint"].partition(":")
    fp.SetFPID(pcbnew.LIB_ID(library, name))          # the .kicad_pcb names its library
    fp.SetReference(part["ref"])
    fp.SetValue(part["value"])
    board.Add(fp)
    fp.SetPosition(to_page(part["x"], part["y"]))
    fp.SetOrientationDegrees(part["rotation"])
    if part["side"] == "bottom":
        fp.Flip(fp.GetPosition(), False)
    if part.get("anchor") == "courtyard":          # (x, y) is the courtyard's centre
        box = courtyard(fp)
        if box is not None:
            dx, dy = part["x"] - (box[0] + box[2]) / 2, part["y"] - (box[1] + box[3]) / 2
            fp.Move(pcbnew.wxPoint(mm(dx), mm(-dy)))
    text = fp.Reference()
    text.SetTextSize(pcbnew.wxSize(mm(part.get("ref_size", 1.0)), mm(part.get("ref_size", 1.0))))
    text.SetTextThickness(mm(0.15))
    if "ref_at" in part:
        text.SetPosition(to_page(*part["ref_at"]))
        text.SetTextAngle(-fp.GetOrientation())        # read level on the board, however the part turns
        text.SetKeepUpright(False)
    if not part.get("ref_visible", True):            # no room on the silkscreen: fab layer only
        text.SetLayer(pcbnew.B_Fab if part["side"] == "bottom" else pcbnew.F_Fab)
    return fp


def pad_record(pad: pcbnew.PAD) -> Json:
    orientation = round(pad.GetOrientationDegrees(), 6) % 180
    if orientation not in (0, 90):
        raise SystemExit(f"pad {pad.GetParent().GetReference()}.{pad.GetNumber()}: "
                         f"orientation {orientation} is not a multiple of 90 degrees")
    w, h = pad.GetSizeX() / 1e6, pad.GetSizeY() / 1e6
    if orientation == 90:
        w, h = h, w
    shape = {pcbnew.PAD_SHAPE_RECT: "rect", pcbnew.PAD_SHAPE_ROUNDRECT: "rect",
             pcbnew.PAD_SHAPE_CHAMFERED_RECT: "rect", pcbnew.PAD_SHAPE_CIRCLE: "circle",
             pcbnew.PAD_SHAPE_OVAL: "oval"}.get(pad.GetShape())
    if shape is None:
        raise SystemExit(f"pad {pad.GetParent().GetReference()}.{pad.GetNumber()}: shape "
                         f"{pad.GetShape()} is not supported")
    layers = [name for name, layer in COPPER.items() if pad.IsOnLayer(layer)]
    x, y = from_page(pad.GetPosition())
    drill = None
    if pad.GetDrillSizeX() > 0:
        drill = [pad.GetDrillSizeX() / 1e6, pad.GetDrillSizeY() / 1e6]
    return {"ref": pad.GetParent().GetReference(), "pad": pad.GetNumber(), "x": x, "y": y,
            "w": round(w, 6), "h": round(h, 6), "shape": shape, "layers": layers, "drill": drill,
            "plated": pad.GetAttribute() == pcbnew.PAD_ATTRIB_PTH, "net": pad.GetNetname()}


def courtyard(fp: pcbnew.FOOTPRINT) -> list[float] | None:
    boxes = [item.GetBoundingBox() for item in fp.GraphicalItems()
             if item.GetLayer() in (pcbnew.F_CrtYd, pcbnew.B_CrtYd)]
    if not boxes:
        return None
    x0 = min(b.GetX() for b in boxes) / 1e6 - ORIGIN[0]
    x1 = max(b.GetX() + b.GetWidth() for b in boxes) / 1e6 - ORIGIN[0]
    y1 = ORIGIN[1] - min(b.GetY() for b in boxes) / 1e6
    y0 = ORIGIN[1] - max(b.GetY() + b.GetHeight() for b in boxes) / 1e6
    return [round(v, 6) for v in (x0, y0, x1, y1)]


def new_board(spec: Json, path: str) -> tuple[pcbnew.BOARD, Json]:
    pcbnew.KIID.SeedGenerator(1)                 # the same UUIDs at every run
    board = pcbnew.NewBoard(path)
    board.SetFileName(path)
    nets = {}
    for name in spec["nets"]:
        net = pcbnew.NETINFO_ITEM(board, name)
        board.Add(net)
        nets[name] = net
    return board, nets


def add_parts(board: pcbnew.BOARD, spec: Json, nets: Json) -> Json:
    footprints = {}
    for part in spec["parts"]:
        fp = place(board, part)
        footprints[part["ref"]] = fp
        pad_nets = spec["pad_nets"].get(part["ref"], {})
        for pad in fp.Pads():
            net = pad_nets.get(pad.GetNumber())
            if net:
                pad.SetNet(nets[net])
    return footprints


def outline(board: pcbnew.BOARD, spec: Json) -> None:
    w, h = spec["outline"]["width"], spec["outline"]["height"]
    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    for a, b in zip(corners, corners[1:] + corners[:1]):
        line = pcbnew.PCB_SHAPE(board)
        line.SetShape(pcbnew.SHAPE_T_SEGMENT)
        line.SetStart(to_page(*a))
        line.SetEnd(to_page(*b))
        line.SetLayer(pcbnew.Edge_Cuts)
        line.SetWidth(mm(0.1))
        board.Add(line)


def rules(board: pcbnew.BOARD, r: Json) -> None:
    """The fab's limits as KiCad's constraints, and the default net class the router used."""
    ds = board.GetDesignSettings()
    ds.SetBoardThickness(mm(r["thickness"]))
    ds.m_MinClearance = mm(r["clearance"])
    ds.m_TrackMinWidth = mm(r["track_min"])
    ds.m_ViasMinSize = mm(r["via_min"])
    ds.m_ViasMinAnnularWidth = mm(r["annular_min"])
    ds.m_MinThroughDrill = mm(r["drill_min"])
    ds.m_HoleClearance = mm(r["hole_clearance"])
    ds.m_HoleToHoleMin = mm(r["hole_to_hole"])
    ds.m_CopperEdgeClearance = mm(r["edge_clearance"])
    ds.m_SilkClearance = mm(r["silk_clearance"])
    ds.m_SolderMaskMinWidth = mm(r["mask_min_width"])
    ds.SetAuxOrigin(to_page(0, 0))
    ds.SetGridOrigin(to_page(0, 0))
    default = ds.GetNetClasses().GetDefault()
    default.SetClearance(mm(r["clearance"]))
    default.SetTrackWidth(mm(r["track"]))
    default.SetViaDiameter(mm(r["via"]))
    default.SetViaDrill(mm(r["via_drill"]))


def copper(board: pcbnew.BOARD, spec: Json, nets: Json) -> None:
    for t in spec["tracks"]:
        track = pcbnew.PCB_TRACK(board)
        track.SetStart(to_page(t["x1"], t["y1"]))
        track.SetEnd(to_page(t["x2"], t["y2"]))
        track.SetWidth(mm(t["width"]))
        track.SetLayer(COPPER[t["layer"]])
        track.SetNet(nets[t["net"]])
        board.Add(track)
    for v in spec["vias"]:
        via = pcbnew.PCB_VIA(board)
        via.SetViaType(pcbnew.VIATYPE_THROUGH)
        via.SetPosition(to_page(v["x"], v["y"]))
        via.SetWidth(mm(v["size"]))
        via.SetDrill(mm(v["drill"]))
        via.SetNet(nets[v["net"]])
        board.Add(via)
    for z in spec["zones"]:
        zone = pcbnew.ZONE(board)
        zone.SetLayer(COPPER[z["layer"]])
        zone.SetNet(nets[z["net"]])
        poly = zone.Outline()
        poly.NewOutline()
        for x, y in z["polygon"]:
            page = to_page(x, y)
            poly.Append(page.x, page.y)
        zone.SetLocalClearance(mm(z["clearance"]))
        zone.SetMinThickness(mm(z["min_width"]))
        zone.SetThermalReliefGap(mm(z["thermal_gap"]))
        zone.SetThermalReliefSpokeWidth(mm(z["spoke_width"]))
        zone.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        zone.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        board.Add(zone)
    for t in spec["texts"]:
        text = pcbnew.PCB_TEXT(board)
        text.SetText(t["text"])
        text.SetLayer(pcbnew.F_SilkS if t["layer"] == "F.SilkS" else pcbnew.B_SilkS)
        text.SetPosition(to_page(t["x"], t["y"]))
        text.SetTextSize(pcbnew.wxSize(mm(t["size"]), mm(t["size"])))
        text.SetTextThickness(mm(t["size"] * 0.15))
        if t["layer"] == "B.SilkS":
            text.SetMirrored(True)
        board.Add(text)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())


_STAMPS = (re.compile(r"^G04 #@! TF\.CreationDate.*\n", re.M),
           re.compile(r"^; #@! TF\.CreationDate.*\n", re.M),
           re.compile(r"^%TF\.CreationDate.*\n", re.M))
_DATES = (re.compile(r"(G04 Created by KiCad \(PCBNEW [^)]*\)) date [^*]*\*"),
          re.compile(r"(; DRILL file \{KiCad [^}]*\}) date .*"))


def unstamped(text: str) -> str:
    """A fabrication file without the date KiCad writes into it: a regenerated file is
    then byte for byte the committed one."""
    for stamp in _STAMPS:
        text = stamp.sub("", text)
    text = _DATES[0].sub(r"\1*", text)
    return _DATES[1].sub(r"\1", text)


def plot(board: pcbnew.BOARD, folder: str, basename: str) -> list[str]:
    control = pcbnew.PLOT_CONTROLLER(board)
    options = control.GetPlotOptions()
    options.SetOutputDirectory(folder)
    options.SetPlotFrameRef(False)
    options.SetUseGerberProtelExtensions(True)
    options.SetUseGerberX2format(False)
    options.SetIncludeGerberNetlistInfo(False)
    options.SetCreateGerberJobFile(False)
    options.SetSubtractMaskFromSilk(True)
    options.SetUseAuxOrigin(True)
    options.SetPlotValue(False)
    options.SetPlotReference(True)
    options.SetExcludeEdgeLayer(True)
    options.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    for suffix, layer in GERBERS:
        control.SetLayer(layer)
        control.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        control.PlotLayer()
    control.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(folder, True, False)
    names = sorted(n for n in os.listdir(folder) if n.startswith(basename + "-"))
    for name in names:
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(unstamped(text))
    return names


_VIOLATION = re.compile(r"^\[(\w+)\]: (.*)$")


def drc(board: pcbnew.BOARD) -> Json:
    """KiCad's own DRC on the board: each violation (its type, message and the items it
    names) and the count of unconnected items, read from the report KiCad writes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "drc.rpt")
        if not pcbnew.WriteDRCReport(board, path, pcbnew.EDA_UNITS_MILLIMETRES, True):
            raise SystemExit("KiCad's DRC did not run")
        with open(path, encoding="utf-8") as handle:
            report = handle.read()
    violations: list[Json] = []
    section = ""
    for line in report.splitlines():
        if line.startswith("** Found"):
            section = line
            continue
        match = _VIOLATION.match(line)
        if match:
            kind = "unconnected" if "unconnected" in section else \
                "footprint" if "Footprint" in section else "violation"
            violations.append({"section": kind, "type": match.group(1), "message": match.group(2),
                               "items": []})
        elif line.startswith("    @(") and violations:
            violations[-1]["items"].append(line.strip())
    counts = {k: sum(1 for v in violations if v["section"] == k)
              for k in ("violation", "unconnected", "footprint")}
    return {"counts": counts, "violations": violations}


def command_pads(spec: Json) -> Json:
    with tempfile.TemporaryDirectory() as tmp:
        board, nets = new_board(spec, os.path.join(tmp, "pads.kicad_pcb"))
        footprints = add_parts(board, spec, nets)
        return {"pads": [pad_record(p) for fp in footprints.values() for p in fp.Pads()],
                "courtyards": {ref: courtyard(fp) for ref, fp in footprints.items()}}


def command_build(spec: Json) -> Json:
    folder, basename = spec["folder"], spec["basename"]
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, basename + ".kicad_pcb")
    board, nets = new_board(spec, path)
    rules(board, spec["rules"])
    outline(board, spec)
    add_parts(board, spec, nets)
    copper(board, spec, nets)
    if not pcbnew.SaveBoard(path, board):
        raise SystemExit(f"KiCad could not save {path}")
    local = os.path.join(folder, basename + ".kicad_prl")
    if os.path.exists(local):
        os.remove(local)
    saved = pcbnew.LoadBoard(path)
    gerbers = plot(saved, os.path.join(folder, spec["fab_folder"]), basename)
    return {"gerbers": gerbers, "drc": drc(saved)}


def command_drc(spec: Json) -> Json:
    return drc(pcbnew.LoadBoard(spec["path"]))


def command_read(spec: Json) -> Json:
    board = pcbnew.LoadBoard(spec["path"])
    global ORIGIN
    ends = [p for d in board.GetDrawings() if d.GetLayer() == pcbnew.Edge_Cuts
            for p in (d.GetStart(), d.GetEnd())]
    x0, x1 = min(p.x for p in ends) / 1e6, max(p.x for p in ends) / 1e6
    y0, y1 = min(p.y for p in ends) / 1e6, max(p.y for p in ends) / 1e6
    ORIGIN = (x0, y1)
    pads = [pad_record(p) for fp in board.GetFootprints() for p in fp.Pads()]
    parts = [{"ref": fp.GetReference(), "footprint": str(fp.GetFPID().GetUniStringLibId()),
              "side": "bottom" if fp.GetLayer() == pcbnew.B_Cu else "top",
              "x": from_page(fp.GetPosition())[0], "y": from_page(fp.GetPosition())[1],
              "rotation": fp.GetOrientationDegrees()} for fp in board.GetFootprints()]
    return {"outline": {"width": round(x1 - x0, 6), "height": round(y1 - y0, 6)},
            "pads": pads, "parts": parts,
            "tracks": sum(1 for t in board.GetTracks() if t.GetClass() == "PCB_TRACK"),
            "vias": sum(1 for t in board.GetTracks() if t.GetClass() == "PCB_VIA")}


COMMANDS = {"pads": command_pads, "build": command_build, "drc": command_drc, "read": command_read}


def main() -> None:
    """The answer goes to a file, not stdout: KiCad writes its own messages there."""
    if len(sys.argv) != 3 or sys.argv[1] not in COMMANDS:
        raise SystemExit(f"usage: kicad_script.py {'|'.join(COMMANDS)} ANSWER.json < spec.json")
    spec = json.load(sys.stdin)
    answer = COMMANDS[sys.argv[1]](spec)
    with open(sys.argv[2], "w", encoding="utf-8") as handle:
        json.dump(answer, handle)


if __name__ == "__main__":
    main()
