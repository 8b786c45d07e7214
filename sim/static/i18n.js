// The page's own words in English, Danish and Swedish, and the one function that puts them
// on the page. The language is the match's (snapshot `settings.language`), so the page speaks
// what the board's display speaks; the vocabulary follows controller/show/texts.py
// (terninger / tärningar, dobbeltkube / dubblingstärning, baren, slå).
// Elements carry data-i18n (text), data-i18n-html (text with markup), data-i18n-title,
// data-i18n-aria and data-i18n-alt naming a key here; ids and data-* the tests use stay put.

export const LANGUAGES = ["en", "da", "sv"];

const STRINGS = {
  en: {
    "hint.in_hand": "Put the checker you hold on a point (a green light shows where it may go).",
    "hint.setup": "Set the checkers up as the purple lights and the display ask (or let the helper do it).",
    "hint.correction": "Something on the board is not right: do what the display says, or put it back.",
    "hint.opening": "Press White ● (or Black ●) to roll the opening: one die each, the higher die moves first.",
    "hint.roll_or_double": "{s}: press {s} ● to roll, or {s} cube to double.",
    "hint.roll": "{s}: press {s} ● to roll (the dice roll by themselves shortly).",
    "hint.take_or_drop": "{s}: press {s} ● to take the double, or {s} cube to drop it.",
    "hint.done": "{s}: press {s} ● when your move is done.",
    "hint.move": "{s}: move your checkers with the dice shown (drag, or click and click).",
    "hint.accept_or_decline": "{s}: press {s} ● to accept the resignation, or {s} cube to decline.",
    "hint.over": "The match is over: press ● for a rematch, or start a New match.",
    "title": "bgboard simulator", "sub": "simulator",
    "status.connecting": "connecting…", "status.online": "board online", "status.offline": "board offline",
    "status.stopped": "simulator stopped: reconnecting…",
    "nav.new": "New match", "nav.download": "Download .mat", "nav.debug": "Debug",
    "side.white": "White", "side.black": "Black",
    "btn.white_main": "White ●", "btn.black_main": "Black ●", "btn.white_cube": "White cube", "btn.black_cube": "Black cube",
    "btn.menu": "Menu",
    "title.main": "roll / done / take / accept", "title.cube": "double / drop / decline",
    "title.menu": "menu: resign, forfeit, new match, rematch, dice entry",
    "board.aria": "backgammon board", "oled.alt": "board display",
    "board.off_black": "off black ↑", "board.off_white": "off white ↓",
    "facts.score": "Score", "facts.pips": "Pips", "facts.cube": "Cube", "facts.dice": "Dice", "facts.turn": "Turn",
    "facts.match_id": "Match ID", "facts.position_id": "Position ID",
    "actions.title": "Actions", "actions.hint": "(what you may do now; the coloured buttons do the same)",
    "help.1": "<b>How to play.</b> Press your <b>●</b> button to roll (at the start, White ● rolls the opening: one die each). The board's lights show where the checker you hold may go (green) and what is wrong (blinking red); the display says what to do next.",
    "help.2": "Drag a checker, or click it to lift it and click where it goes. Double-click a checker to play its highest die; click an empty point to cover it with two. A drop outside the board puts the checker back; hold Shift while dragging to slide it over the points.",
    "help.3": "Keyboard: click the board first, then ← → ↑ ↓ move over the points, Enter lifts or places, Esc puts the checker back.",
    "debug.title": "Debug", "debug.sensors": "Sensor matrix", "debug.link": "Link", "debug.inject": "Inject a fault",
    "fault.noise": "Line noise", "fault.flip": "Flip bytes", "fault.drop": "Drop bytes",
    "fault.flicker": "Flickering sensor", "fault.unplug": "Pull cable", "fault.plug": "Plug cable",
    "link.online": "online", "bool.true": "true", "bool.false": "false", "link.fps": "frames/s", "link.frames": "frames", "link.crc": "CRC errors",
    "link.framing": "framing errors", "link.lost": "lost frames",
    "dlg.title": "New match", "dlg.length": "Length", "dlg.cube": "Cube", "dlg.crawford": "Crawford",
    "dlg.score": "Score (White-Black)", "dlg.crawford_played": "Crawford game played",
    "opt.from_score": "as the score says", "opt.yes": "yes", "opt.no": "no",
    "dlg.clock": "Clock", "dlg.confirm": "End of turn", "dlg.opponent": "Opponent", "dlg.language": "Language",
    "opt.on": "on", "opt.off": "off", "opt.timer": "timer (15 s + bank)", "opt.tournament": "tournament (delay + reserve)",
    "opt.auto": "automatic", "opt.button": "done button", "opt.human": "a person",
    "opt.simple": "computer: simple", "opt.gnubg": "computer: GNU Backgammon",
    "dlg.dice": "Dice", "opt.dice_board": "the board's random dice", "opt.dice_entered": "real dice, entered",
    "opt.dice_verifiable": "verifiable (committed seed)",
    "dlg.cancel": "Cancel", "dlg.start": "Start",
    "helper.setup": "Set up the board for me", "helper.bot_move": "Play the computer's move for me",
    "score": "{white} {w} – {black} {b} (to {n})", "pips": "{white} {w} · {black} {b}",
    "cube.none": "no cube", "cube.center": "center",
    "state.setup": "setup", "state.opening": "opening", "state.roll": "roll", "state.move": "move",
    "state.doubled": "doubled", "state.resigning": "resigning", "state.over": "over",
    "result.single": "single", "result.gammon": "gammon", "result.backgammon": "backgammon",
    // the board, the side panel and the dialogs added for issue 13
    "hint.hit": "Put the hit checker on the bar (the bar and the checker blink).",
    "hint.bot_move": "Move the computer's checkers along the arrows (deep blue: from, cyan: to); its move is written in Black's numbers, the dark labels (or let the helper do it).",
    "winner": "{s} wins the match", "players": "{a} vs {b}", "player.you": "You",
    "player.computer": "Computer ({level})", "level.simple": "simple", "player.remote": "Online opponent",
    "clock.title": "Clock", "clock.timer": "move", "clock.bank": "bank", "clock.delay": "delay", "clock.reserve": "reserve",
    "moves.white": "White (light numbers)", "moves.black": "Black (dark numbers)",
    "moves.title": "Moves", "moves.none": "no move", "moves.double": "doubles to {v}", "moves.take": "takes",
    "moves.drop": "drops", "moves.resign": "resigns {level}", "moves.accept": "accepts", "moves.decline": "declines",
    "ask.forfeit": "{s} gives up the whole match: the opponent wins it. Give up?", "ask.forfeit_yes": "Give up the match",
    "ask.new_match": "A match is being played ({w}–{b}, to {n}). A new match ends it. Start a new one?",
    "ask.new_match_yes": "Start a new match", "helper.undo": "Take back my last step",
    "debug.read": "read {time}", "debug.flickering": "sensor {i} ({cell}) flickers",
    "board.numbers": "light numbers: White's · dark: Black's",
    "caption.roll": "{s}: roll", "caption.double": "{s}: double", "caption.take": "{s}: take", "caption.drop": "{s}: drop",
    "caption.accept": "{s}: accept", "caption.decline": "{s}: decline", "caption.done": "{s}: done",
    "caption.forfeit": "{s}: give up the match", "caption.rematch": "{s}: rematch", "caption.resign": "{s}: resign {level}",
    // the tutor (issue 14): the action it holds is kept or undone
    "caption.keep": "{s}: keep it", "caption.undo": "{s}: undo it",
    "hint.tutor_cube": "{s}: the tutor warns (see the display): press {s} ● to keep your decision, or {s} cube to undo it.",
    "hint.tutor_move": "{s}: the tutor warns (see the display; the lights show the better move): press {s} ● to keep your move, or move the checkers back.",
    "dlg.tutor": "Tutor", "opt.tutor_doubtful": "warn from doubtful", "opt.tutor_bad": "warn from bad", "opt.tutor_very_bad": "warn at very bad",
    "notice.dropped": "Dropped outside the board: the checker went back to {cell}.",
    "notice.menu": "Menu: resign, give up and rematch are in the Actions list; New match is at the top.",
    "notice.fault": "Fault injected: {name}.", "notice.new_match": "New match to {n}.",
    "notice.rejected": "Not now: {reason}", "notice.watching": "Another browser tab is playing on this board; this tab only watches.",
    "notice.unplugged": "The cable is pulled: the controller sees this when it is plugged in again.",
    "notice.stopped": "The simulator is not running: nothing was sent.",
    "notice.board_right": "The board is already right.", "notice.no_bot_move": "There is no computer move to play.",
    "notice.not_in_move": "A checker plays by itself only during a move, with nothing in hand.",
    "notice.cannot_move": "The checker on {cell} cannot move now.", "notice.no_cover": "No two checkers can cover {cell} with these dice.",
    "notice.no_hand": "No checker in hand to place.", "notice.no_undo": "There is no step to take back now.",
  },
  da: {
    "hint.in_hand": "Sæt brikken, du holder, på et felt (et grønt lys viser, hvor den må stå).",
    "hint.setup": "Stil brikkerne op, som de lilla lys og displayet beder om (eller lad hjælperen gøre det).",
    "hint.correction": "Noget på brættet er forkert: gør, som displayet siger, eller sæt det tilbage.",
    "hint.opening": "Tryk på Hvid ● (eller Sort ●) for at slå åbningen: én terning hver, den højeste terning begynder.",
    "hint.roll_or_double": "{s}: tryk på {s} ● for at slå, eller {s} kube for at fordoble.",
    "hint.roll": "{s}: tryk på {s} ● for at slå (terningerne slår snart af sig selv).",
    "hint.take_or_drop": "{s}: tryk på {s} ● for at tage imod fordoblingen, eller {s} kube for at afvise den.",
    "hint.done": "{s}: tryk på {s} ●, når du er færdig med dit træk.",
    "hint.move": "{s}: flyt dine brikker med de viste terninger (træk, eller klik og klik).",
    "hint.accept_or_decline": "{s}: tryk på {s} ● for at acceptere opgivelsen, eller {s} kube for at afvise.",
    "hint.over": "Matchen er slut: tryk på ● for revanche, eller start en Ny match.",
    "title": "bgboard-simulator", "sub": "simulator",
    "status.connecting": "forbinder…", "status.online": "brættet er online", "status.offline": "brættet er offline",
    "status.stopped": "simulatoren er stoppet: forbinder igen…",
    "nav.new": "Ny match", "nav.download": "Hent .mat", "nav.debug": "Fejlsøgning",
    "side.white": "Hvid", "side.black": "Sort",
    "btn.white_main": "Hvid ●", "btn.black_main": "Sort ●", "btn.white_cube": "Hvid kube", "btn.black_cube": "Sort kube",
    "btn.menu": "Menu",
    "title.main": "slå / færdig / tag imod / acceptér", "title.cube": "fordobl / afvis",
    "title.menu": "menu: opgiv, opgiv matchen, ny match, revanche, indtast terninger",
    "board.aria": "backgammonbræt", "oled.alt": "brættets display",
    "board.off_black": "sorts bakke ↑", "board.off_white": "hvids bakke ↓",
    "facts.score": "Stilling", "facts.pips": "Pip", "facts.cube": "Dobbeltkube", "facts.dice": "Terninger", "facts.turn": "Tur",
    "facts.match_id": "Match-ID", "facts.position_id": "Positions-ID",
    "actions.title": "Handlinger", "actions.hint": "(hvad du må gøre nu; de farvede knapper gør det samme)",
    "help.1": "<b>Sådan spiller du.</b> Tryk på din <b>●</b>-knap for at slå (i starten slår Hvid ● åbningen: én terning hver). Brættets lys viser, hvor brikken, du holder, må stå (grønt), og hvad der er galt (blinkende rødt); displayet siger, hvad du skal gøre.",
    "help.2": "Træk en brik, eller klik på den for at løfte den og klik, hvor den skal stå. Dobbeltklik på en brik for at flytte den med den højeste terning; klik på et tomt felt for at dække det med to. Slipper du en brik uden for brættet, kommer den tilbage; hold Shift nede, mens du trækker, for at skubbe den hen over felterne.",
    "help.3": "Tastatur: klik først på brættet, så flytter ← → ↑ ↓ mellem felterne, Enter løfter eller sætter, Esc lægger brikken tilbage.",
    "debug.title": "Fejlsøgning", "debug.sensors": "Sensormatrix", "debug.link": "Forbindelse", "debug.inject": "Fremkald en fejl",
    "fault.noise": "Linjestøj", "fault.flip": "Vend bytes", "fault.drop": "Tab bytes",
    "fault.flicker": "Blinkende sensor", "fault.unplug": "Træk kablet ud", "fault.plug": "Sæt kablet i",
    "link.online": "online", "bool.true": "ja", "bool.false": "nej", "link.fps": "rammer/s", "link.frames": "rammer", "link.crc": "CRC-fejl",
    "link.framing": "rammefejl", "link.lost": "tabte rammer",
    "dlg.title": "Ny match", "dlg.length": "Længde", "dlg.cube": "Dobbeltkube", "dlg.crawford": "Crawford",
    "dlg.score": "Stilling (hvid-sort)", "dlg.crawford_played": "Crawford-spillet er spillet",
    "opt.from_score": "som stillingen siger", "opt.yes": "ja", "opt.no": "nej",
    "dlg.clock": "Ur", "dlg.confirm": "Slut på turen", "dlg.opponent": "Modstander", "dlg.language": "Sprog",
    "opt.on": "til", "opt.off": "fra", "opt.timer": "ur (15 s + bank)", "opt.tournament": "turnering (forsinkelse + reserve)",
    "opt.auto": "automatisk", "opt.button": "færdig-knap", "opt.human": "en person",
    "opt.simple": "computer: enkel", "opt.gnubg": "computer: GNU Backgammon",
    "dlg.dice": "Terninger", "opt.dice_board": "brættets tilfældige terninger", "opt.dice_entered": "rigtige terninger, indtastet",
    "opt.dice_verifiable": "efterprøvelige (bundet frø)",
    "dlg.cancel": "Annuller", "dlg.start": "Begynd",
    "helper.setup": "Stil brikkerne op for mig", "helper.bot_move": "Flyt computerens træk for mig",
    "score": "{white} {w} – {black} {b} (til {n})", "pips": "{white} {w} · {black} {b}",
    "cube.none": "ingen dobbeltkube", "cube.center": "midten",
    "state.setup": "opstilling", "state.opening": "åbning", "state.roll": "slå", "state.move": "flyt",
    "state.doubled": "fordoblet", "state.resigning": "opgiver", "state.over": "slut",
    "result.single": "almindeligt spil", "result.gammon": "gammon", "result.backgammon": "backgammon",
    "hint.hit": "Sæt den slåede brik på baren (baren og brikken blinker).",
    "hint.bot_move": "Flyt computerens brikker langs pilene (mørkeblå: fra, turkis: til); dens træk står i Sorts numre, de mørke tal (eller lad hjælperen gøre det).",
    "winner": "{s} vinder matchen", "players": "{a} mod {b}", "player.you": "Dig",
    "player.computer": "Computer ({level})", "level.simple": "enkel", "player.remote": "Onlinemodstander",
    "clock.title": "Ur", "clock.timer": "træk", "clock.bank": "bank", "clock.delay": "forsinkelse", "clock.reserve": "reserve",
    "moves.white": "Hvid (lyse tal)", "moves.black": "Sort (mørke tal)",
    "moves.title": "Træk", "moves.none": "intet træk", "moves.double": "fordobler til {v}", "moves.take": "tager imod",
    "moves.drop": "afviser", "moves.resign": "opgiver {level}", "moves.accept": "accepterer", "moves.decline": "afviser",
    "ask.forfeit": "{s} opgiver hele matchen: modstanderen vinder den. Opgiv?", "ask.forfeit_yes": "Opgiv matchen",
    "ask.new_match": "En match er i gang ({w}–{b}, til {n}). En ny match afslutter den. Start en ny?",
    "ask.new_match_yes": "Start en ny match", "helper.undo": "Tag mit sidste træk tilbage",
    "debug.read": "læst {time}", "debug.flickering": "sensor {i} ({cell}) flimrer",
    "board.numbers": "lyse tal: Hvids · mørke: Sorts",
    "caption.roll": "{s}: slå", "caption.double": "{s}: fordobl", "caption.take": "{s}: tag imod", "caption.drop": "{s}: afvis",
    "caption.accept": "{s}: acceptér", "caption.decline": "{s}: afvis", "caption.done": "{s}: færdig",
    "caption.forfeit": "{s}: opgiv matchen", "caption.rematch": "{s}: revanche", "caption.resign": "{s}: opgiv {level}",
    "caption.keep": "{s}: behold", "caption.undo": "{s}: fortryd",
    "hint.tutor_cube": "{s}: træneren advarer (se displayet): tryk på {s} ● for at beholde din beslutning, eller {s} kube for at fortryde den.",
    "hint.tutor_move": "{s}: træneren advarer (se displayet; lysene viser det bedre træk): tryk på {s} ● for at beholde dit træk, eller flyt brikkerne tilbage.",
    "dlg.tutor": "Træner", "opt.tutor_doubtful": "advar fra tvivlsomt", "opt.tutor_bad": "advar fra dårligt", "opt.tutor_very_bad": "advar ved meget dårligt",
    "notice.dropped": "Tabt uden for brættet: brikken kom tilbage på {cell}.",
    "notice.menu": "Menu: opgiv og revanche står i listen Handlinger; Ny match er øverst.",
    "notice.fault": "Fejl indsat: {name}.", "notice.new_match": "Ny match til {n}.",
    "notice.rejected": "Ikke nu: {reason}", "notice.watching": "En anden fane spiller på brættet; denne fane ser kun på.",
    "notice.unplugged": "Kablet er trukket ud: controlleren ser det, når det sættes i igen.",
    "notice.stopped": "Simulatoren kører ikke: intet blev sendt.",
    "notice.board_right": "Brættet står allerede rigtigt.", "notice.no_bot_move": "Der er intet computertræk at flytte.",
    "notice.not_in_move": "En brik flytter kun af sig selv under et træk, med intet i hånden.",
    "notice.cannot_move": "Brikken på {cell} kan ikke flytte nu.", "notice.no_cover": "Ingen to brikker kan dække {cell} med disse terninger.",
    "notice.no_hand": "Ingen brik i hånden at sætte.", "notice.no_undo": "Der er intet træk at tage tilbage nu.",
  },
  sv: {
    "hint.in_hand": "Ställ brickan du håller på en spets (ett grönt ljus visar var den får stå).",
    "hint.setup": "Ställ upp brickorna som de lila lamporna och displayen ber om (eller låt hjälparen göra det).",
    "hint.correction": "Något på brädet är fel: gör som displayen säger, eller ställ tillbaka det.",
    "hint.opening": "Tryck på Vit ● (eller Svart ●) för att slå öppningen: en tärning var, den högsta tärningen börjar.",
    "hint.roll_or_double": "{s}: tryck på {s} ● för att slå, eller {s} kub för att dubbla.",
    "hint.roll": "{s}: tryck på {s} ● för att slå (tärningarna slås snart av sig själva).",
    "hint.take_or_drop": "{s}: tryck på {s} ● för att ta emot dubblingen, eller {s} kub för att avböja den.",
    "hint.done": "{s}: tryck på {s} ● när du är klar med draget.",
    "hint.move": "{s}: flytta dina brickor med tärningarna som visas (dra, eller klicka och klicka).",
    "hint.accept_or_decline": "{s}: tryck på {s} ● för att tacka ja till uppgivandet, eller {s} kub för att spela vidare.",
    "hint.over": "Matchen är slut: tryck på ● för revansch, eller starta en Ny match.",
    "title": "bgboard-simulator", "sub": "simulator",
    "status.connecting": "ansluter…", "status.online": "brädet är online", "status.offline": "brädet är offline",
    "status.stopped": "simulatorn har stoppat: ansluter igen…",
    "nav.new": "Ny match", "nav.download": "Ladda ner .mat", "nav.debug": "Felsökning",
    "side.white": "Vit", "side.black": "Svart",
    "btn.white_main": "Vit ●", "btn.black_main": "Svart ●", "btn.white_cube": "Vit kub", "btn.black_cube": "Svart kub",
    "btn.menu": "Meny",
    "title.main": "slå / klar / ta emot / tacka ja", "title.cube": "dubbla / avböj",
    "title.menu": "meny: ge upp, ge upp matchen, ny match, revansch, ange tärningar",
    "board.aria": "backgammonbräde", "oled.alt": "brädets display",
    "board.off_black": "svarts fack ↑", "board.off_white": "vits fack ↓",
    "facts.score": "Ställning", "facts.pips": "Pip", "facts.cube": "Dubblingstärning", "facts.dice": "Tärningar", "facts.turn": "Tur",
    "facts.match_id": "Match-ID", "facts.position_id": "Positions-ID",
    "actions.title": "Handlingar", "actions.hint": "(vad du får göra nu; de färgade knapparna gör samma sak)",
    "help.1": "<b>Så spelar du.</b> Tryck på din <b>●</b>-knapp för att slå (i början slår Vit ● öppningen: en tärning var). Brädets lampor visar var brickan du håller får stå (grönt) och vad som är fel (blinkande rött); displayen säger vad du ska göra.",
    "help.2": "Dra en bricka, eller klicka på den för att lyfta den och klicka där den ska stå. Dubbelklicka på en bricka för att flytta den med den högsta tärningen; klicka på en tom spets för att täcka den med två. Släpper du en bricka utanför brädet går den tillbaka; håll ner Shift medan du drar för att skjuta den över spetsarna.",
    "help.3": "Tangentbord: klicka först på brädet, sedan flyttar ← → ↑ ↓ mellan spetsarna, Enter lyfter eller ställer, Esc lägger tillbaka brickan.",
    "debug.title": "Felsökning", "debug.sensors": "Sensormatris", "debug.link": "Förbindelse", "debug.inject": "Framkalla ett fel",
    "fault.noise": "Brus på linjen", "fault.flip": "Vänd byte", "fault.drop": "Tappa byte",
    "fault.flicker": "Fladdrande sensor", "fault.unplug": "Dra ur kabeln", "fault.plug": "Sätt i kabeln",
    "link.online": "online", "bool.true": "ja", "bool.false": "nej", "link.fps": "ramar/s", "link.frames": "ramar", "link.crc": "CRC-fel",
    "link.framing": "ramfel", "link.lost": "förlorade ramar",
    "dlg.title": "Ny match", "dlg.length": "Längd", "dlg.cube": "Dubblingstärning", "dlg.crawford": "Crawford",
    "dlg.score": "Ställning (vit-svart)", "dlg.crawford_played": "Crawfordspelet är spelat",
    "opt.from_score": "som ställningen säger", "opt.yes": "ja", "opt.no": "nej",
    "dlg.clock": "Klocka", "dlg.confirm": "Slut på draget", "dlg.opponent": "Motståndare", "dlg.language": "Språk",
    "opt.on": "på", "opt.off": "av", "opt.timer": "timer (15 s + bank)", "opt.tournament": "turnering (fördröjning + reserv)",
    "opt.auto": "automatiskt", "opt.button": "klar-knapp", "opt.human": "en person",
    "opt.simple": "dator: enkel", "opt.gnubg": "dator: GNU Backgammon",
    "dlg.dice": "Tärningar", "opt.dice_board": "brädets slumptärningar", "opt.dice_entered": "riktiga tärningar, inmatade",
    "opt.dice_verifiable": "kontrollerbara (bundet frö)",
    "dlg.cancel": "Avbryt", "dlg.start": "Starta",
    "helper.setup": "Ställ upp brickorna åt mig", "helper.bot_move": "Flytta datorns drag åt mig",
    "score": "{white} {w} – {black} {b} (till {n})", "pips": "{white} {w} · {black} {b}",
    "cube.none": "ingen dubblingstärning", "cube.center": "mitten",
    "state.setup": "uppställning", "state.opening": "öppning", "state.roll": "slå", "state.move": "flytta",
    "state.doubled": "dubblad", "state.resigning": "ger upp", "state.over": "slut",
    "result.single": "enkelt spel", "result.gammon": "gammon", "result.backgammon": "backgammon",
    "hint.hit": "Lägg den utslagna brickan på baren (baren och brickan blinkar).",
    "hint.bot_move": "Flytta datorns brickor längs pilarna (mörkblå: från, turkos: till); dess drag står i Svarts nummer, de mörka talen (eller låt hjälparen göra det).",
    "winner": "{s} vinner matchen", "players": "{a} mot {b}", "player.you": "Du",
    "player.computer": "Dator ({level})", "level.simple": "enkel", "player.remote": "Motståndare online",
    "clock.title": "Klocka", "clock.timer": "drag", "clock.bank": "bank", "clock.delay": "fördröjning", "clock.reserve": "reserv",
    "moves.white": "Vit (ljusa tal)", "moves.black": "Svart (mörka tal)",
    "moves.title": "Drag", "moves.none": "inget drag", "moves.double": "dubblar till {v}", "moves.take": "tar emot",
    "moves.drop": "avböjer", "moves.resign": "ger upp {level}", "moves.accept": "tackar ja", "moves.decline": "spelar vidare",
    "ask.forfeit": "{s} ger upp hela matchen: motståndaren vinner den. Ge upp?", "ask.forfeit_yes": "Ge upp matchen",
    "ask.new_match": "En match pågår ({w}–{b}, till {n}). En ny match avslutar den. Starta en ny?",
    "ask.new_match_yes": "Starta en ny match", "helper.undo": "Ta tillbaka mitt senaste drag",
    "debug.read": "läst {time}", "debug.flickering": "sensor {i} ({cell}) flimrar",
    "board.numbers": "ljusa tal: Vits · mörka: Svarts",
    "caption.roll": "{s}: slå", "caption.double": "{s}: dubbla", "caption.take": "{s}: ta emot", "caption.drop": "{s}: avböj",
    "caption.accept": "{s}: tacka ja", "caption.decline": "{s}: spela vidare", "caption.done": "{s}: klar",
    "caption.forfeit": "{s}: ge upp matchen", "caption.rematch": "{s}: revansch", "caption.resign": "{s}: ge upp {level}",
    "caption.keep": "{s}: behåll", "caption.undo": "{s}: ångra",
    "hint.tutor_cube": "{s}: tränaren varnar (se displayen): tryck på {s} ● för att behålla ditt beslut, eller {s} kub för att ångra det.",
    "hint.tutor_move": "{s}: tränaren varnar (se displayen; lamporna visar det bättre draget): tryck på {s} ● för att behålla ditt drag, eller flytta tillbaka brickorna.",
    "dlg.tutor": "Tränare", "opt.tutor_doubtful": "varna från tveksamt", "opt.tutor_bad": "varna från dåligt", "opt.tutor_very_bad": "varna vid mycket dåligt",
    "notice.dropped": "Släppt utanför brädet: brickan gick tillbaka till {cell}.",
    "notice.menu": "Meny: ge upp och revansch finns i listan Åtgärder; Ny match finns överst.",
    "notice.fault": "Fel infört: {name}.", "notice.new_match": "Ny match till {n}.",
    "notice.rejected": "Inte nu: {reason}", "notice.watching": "En annan flik spelar på brädet; den här fliken tittar bara på.",
    "notice.unplugged": "Kabeln är utdragen: styrenheten ser det när den sätts i igen.",
    "notice.stopped": "Simulatorn är inte igång: inget skickades.",
    "notice.board_right": "Brädet står redan rätt.", "notice.no_bot_move": "Det finns inget datordrag att flytta.",
    "notice.not_in_move": "En bricka flyttar bara av sig själv under ett drag, med inget i handen.",
    "notice.cannot_move": "Brickan på {cell} kan inte flytta nu.", "notice.no_cover": "Inga två brickor kan täcka {cell} med de här tärningarna.",
    "notice.no_hand": "Ingen bricka i handen att ställa.", "notice.no_undo": "Det finns inget drag att ta tillbaka nu.",
  },
};

// The server's hints (sim/web/live.py `hint`) arrive as English sentences; these turn each
// known one into Danish or Swedish. {s} is the side named in it, {o} the other side.
// An unknown sentence stays English rather than vanishing.
/** A known language, or English: the snapshot may come from an older settings file. */
export function normalise(lang) {
  return LANGUAGES.includes(lang) ? lang : "en";
}

/** The page string `key` in `lang` with {name} fields filled; English, then the key, if missing. */
export function t(lang, key, params = {}) {
  const text = STRINGS[normalise(lang)][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The server's hint ({key, side}, see LiveSim.hint) in `lang`; "" for none. */
export function hintText(lang, hint) {
  return hint ? t(lang, `hint.${hint.key}`, { s: sideName(lang, hint.side) }) : "";
}

/** "white" -> "Hvid" etc.; anything else unchanged. */
export function sideName(lang, side) {
  return side === "white" || side === "black" ? t(lang, `side.${side}`) : side;
}

/** The caption of a script action such as "white resign gammon": "White: resign gammon",
 * "Hvid: opgiv gammon"; an action the page does not know keeps its command text. */
export function actionCaption(lang, action) {
  const [side, verb, level] = action.split(" ");
  if (!(side === "white" || side === "black") || !STRINGS.en[`caption.${verb}`]) return action;
  return t(lang, `caption.${verb}`, { s: sideName(lang, side), level: level ? t(lang, `result.${level}`) : "" });
}

/** A server notice ({text, key, params}) in `lang`: its catalogue line when it has a key
 * the page knows, else its English text. */
export function noticeText(lang, notice) {
  const key = notice.key ? `notice.${notice.key}` : null;
  if (!key || !(key in STRINGS.en)) return notice.text;
  const params = { ...(notice.params ?? {}) };
  if (params.colour) params.colour = sideName(lang, params.colour);
  if (params.name && `fault.${params.name}` in STRINGS.en) params.name = t(lang, `fault.${params.name}`);  // as its button says
  return t(lang, key, params);
}

/** Put `lang`'s words on every element under `root` that names a key. */
export function applyLanguage(lang, root = document) {
  lang = normalise(lang);
  if (root === document) {
    document.documentElement.lang = lang;
    document.title = t(lang, "title");
  }
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(lang, el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-html]").forEach((el) => { el.innerHTML = t(lang, el.dataset.i18nHtml); });
  root.querySelectorAll("[data-i18n-title]").forEach((el) => { el.title = t(lang, el.dataset.i18nTitle); });
  root.querySelectorAll("[data-i18n-aria]").forEach((el) => { el.setAttribute("aria-label", t(lang, el.dataset.i18nAria)); });
  root.querySelectorAll("[data-i18n-alt]").forEach((el) => { el.alt = t(lang, el.dataset.i18nAlt); });
}
