"""The hall page in a real headless Chromium while two simulated boards play: after each final
move the page shows the new position, without a reload."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from controller.config import Config
from controller.event_scripts import script_for_moves
from controller.hall_server import HallServer
from controller.mosquitto import Mosquitto
from tests.hall_rig import TIMEOUT, chromium, need_mosquitto
from tests.service_rig import Rig

GAMES = {
    "A": ("chess", ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]),
    "B": ("chess", ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"]),
}


@pytest.fixture
def browser(tmp_path):
    driver = chromium(str(tmp_path / "profile"))
    try:
        yield driver
    finally:
        driver.quit()


def test_the_hall_page_shows_each_final_move_of_two_boards_without_reloading(tmp_path: Path, browser) -> None:
    need_mosquitto()
    from selenium.webdriver.support.ui import WebDriverWait

    with Mosquitto(tmp_path / "broker") as broker:
        server = HallServer(Config(hall=broker.url, hall_listen="127.0.0.1:0")).start()
        rigs: dict[str, Rig] = {}
        try:
            for name, (variant, _moves) in GAMES.items():
                (tmp_path / name).mkdir()
                rigs[name] = Rig(tmp_path / name, "", engine.find_variant(variant), hall=broker.url,
                                 hall_board=name)
                rigs[name].service.start()
            page = WebDriverWait(browser, TIMEOUT)
            browser.get(server.url + "/")
            browser.execute_script("window.sameLoad = 42;")

            def shown(name: str) -> str:
                return browser.execute_script(
                    "const el = document.getElementById('board-' + arguments[0]);"
                    "return el ? el.dataset.fen : '';", name)

            def showing(name: str, fen: str):
                return lambda _driver: shown(name) == fen

            played = {name: engine.start_position(engine.find_variant(v)) for name, (v, _) in GAMES.items()}
            for ply in range(len(GAMES["A"][1])):
                for name, (_variant, moves) in GAMES.items():
                    pos = played[name]
                    rig = rigs[name]
                    rig.board.start_script("\n".join(script_for_moves(pos.variant, [moves[ply]], fen=pos.fen())))
                    rig.wait(lambda rig=rig, ply=ply: len(rig.accepted) == ply + 1)
                    move = pos.push_text(moves[ply])
                    page.until(showing(name, pos.fen()), f"board {name} never showed {moves[ply]}")
                    target = pos.variant.geometry.names[move.to]
                    # the moved piece stands on its new cell in the drawing, the cell it left is empty
                    assert browser.execute_script(
                        "return document.querySelector('#board-' + arguments[0] + ' text[data-cell=\"'"
                        " + arguments[1] + '\"]').dataset.piece;", name, target).upper() == \
                        pos.variant.symbol(pos.board[move.to]).upper()
                    assert browser.execute_script(
                        "return document.querySelectorAll('#board-' + arguments[0] + ' text[data-cell=\"'"
                        " + arguments[1] + '\"]').length;", name, pos.variant.geometry.names[move.frm]) == 0
            assert browser.execute_script("return window.sameLoad;") == 42  # never reloaded
            # the board's own page, live too
            browser.get(server.url + "/board/A")
            assert browser.find_element("css selector", "#board-A").get_attribute("data-fen") == played["A"].fen()
            assert "Nf6" in browser.find_element("css selector", "table.moves").text
            events = browser.find_element("css selector", "ol.events").text
            assert "move 6 Nf6" in events and "move 1 e4" in events
        finally:
            for rig in rigs.values():
                rig.close()
            server.stop()


def test_the_board_page_counts_the_running_clock_down(tmp_path: Path, browser) -> None:
    """Clocks as the board last published them; the side to move's runs on in the page."""
    need_mosquitto()
    from selenium.webdriver.support.ui import WebDriverWait

    from controller.hall_publish import HallPublisher
    from tests.hall_rig import sample_state

    with Mosquitto(tmp_path / "broker") as broker:
        server = HallServer(Config(hall=broker.url, hall_listen="127.0.0.1:0")).start()
        board = HallPublisher(Config(hall=broker.url, hall_board="clk")).start()
        try:
            board.publish_state(sample_state("chess", ["e2e4"], clocks=[297.0, 300.0], time_control="300+2"))
            with server.model.changed:
                assert server.model.changed.wait_for(lambda: "clk" in server.model.names(), TIMEOUT)
            browser.get(server.url + "/board/clk")
            clocks = "return [...document.querySelectorAll('#page .clock')].map(e => e.textContent);"
            assert browser.execute_script(clocks)[0] == "4:57"  # white's clock stands (black to move)
            WebDriverWait(browser, TIMEOUT).until(lambda d: d.execute_script(clocks)[1] != "5:00",
                                                  "black's clock never ran")
            assert browser.execute_script(clocks)[0] == "4:57"
        finally:
            board.stop()
            server.stop()
