//! Tauri commands: a few lines each over `aas-client`; the UI calls them through
//! `ui/api.js` only.

use aas_model::{AssetType, OutlineNode};
use tauri::State;

use crate::error::IpcError;
use crate::state::{AppState, ProfileView};

type Reply<T> = Result<T, IpcError>;

#[tauri::command]
pub fn connection_info(state: State<'_, AppState>) -> ProfileView {
    state.session().profile
}

#[tauri::command]
pub async fn list_aas(
    state: State<'_, AppState>,
    asset_type: String,
    plant: String,
) -> Reply<Vec<OutlineNode>> {
    let asset_type: AssetType = asset_type.parse()?;
    let shells = state.session().client.aas_list(asset_type, &plant).await?;
    Ok(shells.iter().map(OutlineNode::shell).collect())
}

#[tauri::command]
pub async fn list_submodels(state: State<'_, AppState>, aas_id: String) -> Reply<Vec<OutlineNode>> {
    let submodels = state.session().client.submodels(&aas_id).await?;
    Ok(submodels.iter().map(OutlineNode::submodel).collect())
}

#[tauri::command]
pub async fn list_elements(
    state: State<'_, AppState>,
    aas_id: String,
    submodel: String,
) -> Reply<Vec<OutlineNode>> {
    let elements = state.session().client.elements(&aas_id, &submodel).await?;
    Ok(elements.iter().map(OutlineNode::element).collect())
}

/// The node's request as a curl command, with placeholders where the tokens go.
#[tauri::command]
pub fn curl_for(
    state: State<'_, AppState>,
    aas_id: String,
    submodel: Option<String>,
    id_shorts: Vec<String>,
) -> String {
    // The idShorts from the outermost collection down to the element.
    let nested: Vec<&str> = id_shorts.iter().map(String::as_str).collect();
    let url = state
        .session()
        .client
        .resource_url(&aas_id, submodel.as_deref(), &nested);
    aas_client::curl_command(&url)
}

/// Whether the active profile's service answers (a registry read), so the UI can
/// leave its offline state by itself.
#[tauri::command]
pub async fn check_connection(state: State<'_, AppState>) -> Reply<()> {
    state.session().client.registry().await?;
    Ok(())
}
