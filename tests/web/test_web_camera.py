"""The vision pages: the newest frame, detections outlined and labelled, zones and
teaching, through a camera provider of web.camera's shape (the Pi camera cannot exist
here; the frame is a real JPEG). Without a camera every page says so."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from conftest import PIN, post_json
from web.app import create_app
from web.camera import CameraProvider


class StandInCamera:
    """A camera provider holding one real JPEG frame and what was found in it."""

    def __init__(self):
        image = np.full((480, 640, 3), 40, np.uint8)
        cv2.rectangle(image, (100, 100), (180, 220), (250, 250, 250), -1)
        self.jpeg = cv2.imencode(".jpg", image)[1].tobytes()
        self._zones = {"discard": [0.1, 0.1, 0.5, 0.6]}
        self.taught: list[str] = []

    def latest_jpeg(self):
        return self.jpeg

    def detections(self):
        return [{"card": "7", "label": "7", "confidence": 0.93, "zone": "discard",
                 "quad": [[0.16, 0.21], [0.28, 0.21], [0.28, 0.46], [0.16, 0.46]]}]

    def zones(self):
        return dict(self._zones)

    def set_zones(self, zones):
        if "discard" not in zones:
            raise ValueError("the discard zone is needed")
        self._zones = dict(zones)

    def teach(self, label):
        if label == "nothing":
            from device.live_teaching import Refused   # as the real teacher refuses: with a code
            raise Refused("'nothing' is not a card", "profile.no_label", label="nothing", name="stand-in")
        if label == "12":
            return {"ok": False, "message": "no card is under the camera"}
        self.taught.append(label)
        return {"ok": True, "message": f"learnt {label}"}


@pytest.fixture
def camera():
    return StandInCamera()


@pytest.fixture
def cam_app(table, camera):
    return create_app(table, host_pin=PIN, camera=camera)


@pytest.fixture
def cam_host(cam_app):
    c = cam_app.test_client()
    assert post_json(c, "/api/login", {"pin": PIN}).status_code == 200
    return c


def test_stand_in_has_the_protocols_shape(camera):
    assert isinstance(camera, CameraProvider)


def test_without_a_camera_pages_say_so(client, host):
    assert "No camera" in client.get("/camera").get_data(as_text=True)
    r = client.get("/camera/frame.jpg")
    assert r.status_code == 404 and r.get_json()["error"] == "No camera is connected."
    assert client.get("/api/camera").get_json() == {"camera": False, "detections": [], "zones": {}}
    assert post_json(host, "/api/camera/teach", {"label": "7"}).status_code == 404
    assert post_json(host, "/api/camera/zones", {"discard": [0, 0, 1, 1]}).status_code == 404


def test_frame_and_detections(cam_app, camera):
    c = cam_app.test_client()
    r = c.get("/camera/frame.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.data == camera.jpeg
    image = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (480, 640, 3)
    state = c.get("/api/camera").get_json()
    assert state["camera"] and state["detections"][0]["card"] == "7"
    page = c.get("/camera").get_data(as_text=True)
    assert 'id="overlay"' in page and "teach-form" not in page  # teaching is for the host


def test_frame_not_ready_is_503(cam_app, camera):
    camera.jpeg = None
    assert cam_app.test_client().get("/camera/frame.jpg").status_code == 503


def test_teaching_needs_the_host_and_a_known_label(cam_app, cam_host, camera):
    assert post_json(cam_app.test_client(), "/api/camera/teach", {"label": "7"}).status_code == 401
    r = post_json(cam_host, "/api/camera/teach", {"label": "7"})
    assert r.status_code == 200 and r.get_json()["ok"] and camera.taught == ["7"]
    assert post_json(cam_host, "/api/camera/teach", {"label": "12"}).status_code == 422
    r = post_json(cam_host, "/api/camera/teach", {"label": "nothing"})
    assert r.status_code == 400 and "not a card" in r.get_json()["error"]
    assert post_json(cam_host, "/api/camera/teach", {}).status_code == 400
    assert "teach-form" in cam_host.get("/camera").get_data(as_text=True)


class LiveCamera(StandInCamera):
    """The stand-in with a real live teacher (device.live_teaching) whose newest frame
    is a bare table: what teaching says is messages, the page's view says them."""

    def __init__(self, path):
        from device.live_teaching import LiveTeacher
        from device.vision_loop import LatestFrame
        super().__init__()
        self.teacher = LiveTeacher(path)
        self.frame = LatestFrame(np.full((480, 640, 3), (40, 110, 30), np.uint8), 0, 0, None, None)

    def teach(self, label):
        return self.teacher(label, self.frame)

    def teach_start(self, labels):
        return {"ok": True, **self.teacher.start(labels, lambda: None)}

    def teach_stop(self):
        self.teacher.stop()
        return self.teach_status()

    def teach_status(self):
        return {"available": True, **self.teacher.status()}


def test_live_teaching_speaks_the_devices_language(table, tmp_path):
    camera = LiveCamera(tmp_path / "taught.npz")
    host = create_app(table, host_pin=PIN, camera=camera).test_client()
    assert post_json(host, "/api/login", {"pin": PIN}).status_code == 200
    host.set_cookie("lang", "fr")
    r = post_json(host, "/api/camera/teach", {"label": "Rouge 7"})
    assert r.status_code == 422
    assert r.get_json()["message"] == ("Rouge 7 n'a pas été apprise : aucune carte trouvée (posez la carte à plat "
                                       "sur une table unie, entière, ou recadrez l'image sur la carte).")
    try:
        assert post_json(host, "/api/camera/teaching/start", {"labels": ["Rouge 7", "Bleu 2"]}).get_json()["seen"] \
            == "Recherche des cartes."
    finally:
        post_json(host, "/api/camera/teaching/stop", {})
    for labels, french in ((["Rouge 7", "Rouge 7"], "Chaque carte d'un rang doit être une carte différente."),
                           ([], "Dites quelle carte est sous la caméra, ou quelles cartes de gauche à droite.")):
        r = post_json(host, "/api/camera/teaching/start", {"labels": labels})
        assert r.status_code == 400 and r.get_json()["error"] == french
    host.set_cookie("lang", "en")
    assert host.get("/api/camera/teaching").get_json()["seen"] == "Looking for the cards."


def test_zones_are_checked_before_they_are_set(cam_host, camera):
    good = {"discard": [0.2, 0.2, 0.6, 0.7], "seat:0": [0, 0.8, 0.3, 1]}
    r = post_json(cam_host, "/api/camera/zones", good)
    assert r.status_code == 200 and camera.zones() == good
    for bad in ({"discard": [0.5, 0.5, 0.2, 0.9]}, {"discard": [0, 0, 2, 1]},
                {"discard": "everywhere"}, {"discard": [0, 0, 1]}, {"reveal": [0, 0, 1, 1]}):
        r = post_json(cam_host, "/api/camera/zones", bad)
        assert r.status_code == 400 and r.get_json()["error"], bad
    assert camera.zones() == good
