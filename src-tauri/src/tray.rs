//! The tray: an icon that changes while questions wait, and a menu whose first item
//! opens the window (Linux trays send no clicks), then up to five waiting questions,
//! how each SSH host kept forwarded is, Do not disturb, Start at login, and Quit.

use tauri::image::Image;
use tauri::menu::{CheckMenuItem, Menu, MenuEvent, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tauri_plugin_autostart::ManagerExt;

use crate::app_state::AppState;
use user_questions::ssh::remembered::Status;
use user_questions_window::AskView;

const IDLE_ICON: &[u8] = include_bytes!("../../icons/tray.png");
const PENDING_ICON: &[u8] = include_bytes!("../../icons/tray-pending.png");
const ID: &str = "main";

fn menu<R: Runtime>(app: &AppHandle<R>, list: &[AskView]) -> tauri::Result<Menu<R>> {
    let menu = Menu::new(app)?;
    let t = app.state::<AppState>().text();
    let open = t.tr_args("tray-open", &[("count", list.len().into())]);
    menu.append(&MenuItem::with_id(app, "open", open, true, None::<&str>)?)?;
    for view in list.iter().take(5) {
        let mut text = format!("{}: {}", user_questions_window::notice::asked_by(view, &t), view.questions[0].question);
        if text.chars().count() > 60 {
            text = text.chars().take(59).collect::<String>() + "…";
        }
        // Menus read a single `&` as a mnemonic marker; the agent's text is shown as is.
        let text = text.replace('&', "&&");
        menu.append(&MenuItem::with_id(app, format!("ask:{}", view.ask), text, true, None::<&str>)?)?;
    }
    menu.append(&PredefinedMenuItem::separator(app)?)?;
    let hosts = app.state::<AppState>().ssh_hosts.borrow().clone();
    for (name, status) in &hosts {
        let name = name.replace('&', "&&");
        let text = match status {
            Status::Connecting => t.tr_args("tray-ssh-connecting", &[("name", (&name).into())]),
            Status::Forwarding => t.tr_args("tray-ssh-forwarding", &[("name", (&name).into())]),
            Status::Retrying { said } => {
                t.tr_args("tray-ssh-retrying", &[("name", (&name).into()), ("said", (&said.replace('&', "&&")).into())])
            }
        };
        menu.append(&MenuItem::with_id(app, format!("ssh:{name}"), text, false, None::<&str>)?)?;
    }
    if !hosts.is_empty() {
        menu.append(&PredefinedMenuItem::separator(app)?)?;
    }
    let dnd = app.state::<AppState>().do_not_disturb();
    menu.append(&CheckMenuItem::with_id(app, "dnd", t.tr("tray-dnd"), true, dnd, None::<&str>)?)?;
    let login = app.autolaunch().is_enabled().unwrap_or(false);
    menu.append(&CheckMenuItem::with_id(app, "autostart", t.tr("tray-autostart"), true, login, None::<&str>)?)?;
    menu.append(&MenuItem::with_id(app, "quit", t.tr("tray-quit"), true, None::<&str>)?)?;
    Ok(menu)
}

pub fn build<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<TrayIcon<R>> {
    TrayIconBuilder::with_id(ID)
        .icon(Image::from_bytes(IDLE_ICON)?)
        .tooltip(app.state::<AppState>().text().tr("tray-tooltip"))
        .menu(&menu(app, &[])?)
        .on_menu_event(on_menu)
        .build(app)
}

/// Redraws the icon and the menu for the current list.
pub fn update<R: Runtime>(app: &AppHandle<R>, list: &[AskView]) {
    let Some(tray) = app.tray_by_id(ID) else { return };
    let icon = if list.is_empty() { IDLE_ICON } else { PENDING_ICON };
    if let Ok(image) = Image::from_bytes(icon) {
        let _ = tray.set_icon(Some(image));
    }
    let tip = app.state::<AppState>().text().tr_args("tray-tooltip-waiting", &[("count", list.len().into())]);
    let _ = tray.set_tooltip(Some(tip));
    match menu(app, list) {
        Ok(m) => {
            let _ = tray.set_menu(Some(m));
        }
        Err(e) => tracing::warn!("tray menu: {e}"),
    }
}

fn on_menu<R: Runtime>(app: &AppHandle<R>, event: MenuEvent) {
    match event.id().as_ref() {
        "open" => crate::window::open(app, None),
        "dnd" => {
            let state = app.state::<AppState>();
            state.set_do_not_disturb(!state.do_not_disturb());
            let _ = app.emit(crate::events::DO_NOT_DISTURB, state.do_not_disturb());
            update(app, &state.inbox.list());
        }
        "autostart" => {
            let auto = app.autolaunch();
            let _ = if auto.is_enabled().unwrap_or(false) { auto.disable() } else { auto.enable() };
        }
        "quit" => crate::quit(app),
        id => {
            if let Some(ask) = id.strip_prefix("ask:") {
                crate::window::open(app, Some(ask.to_owned()));
            }
        }
    }
}
