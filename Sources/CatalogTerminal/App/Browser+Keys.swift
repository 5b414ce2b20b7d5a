import CatalogClient

/// The keys of each screen: what a key press changes and which request it starts.
extension Browser {
    func handle(_ event: BrowserEvent) {
        switch event {
        case .key(let key): handle(key)
        case .resize: clampScroll()
        case .stop, .inputEnded:
            finished = true
            stopFollowing()
        case .answer(let answer): apply(answer)
        }
    }

    private func handle(_ key: Key) {
        if key == .control("c") || key == .control("d") {
            finished = true
            stopFollowing()
            return
        }
        if key == .control("r"), state.message?.canRetry == true, let retry {
            state.message = nil
            retry()
            return
        }
        if key == .control("l") { return }  // the loop redraws after every event
        if state.showingHelp {
            // The arrows scroll a help longer than the screen; any other key closes it and goes
            // back to where it was opened.
            let hidden = BrowserView.helpHiddenLines(state, width: width, height: height)
            var key = key
            if case .mouse(let mouse) = key, mouse.action != .click { key = mouse.action == .wheelUp ? .up : .down }
            switch key {
            case .down where hidden > 0: state.helpScroll = min(hidden, state.helpScroll + 1)
            case .up where hidden > 0: state.helpScroll = max(0, state.helpScroll - 1)
            case .pageDown where hidden > 0: state.helpScroll = min(hidden, state.helpScroll + max(1, height - 3))
            case .pageUp where hidden > 0: state.helpScroll = max(0, state.helpScroll - max(1, height - 3))
            default:
                state.showingHelp = false
                state.helpScroll = 0
            }
            return
        }
        if case .mouse(let mouse) = key {
            self.mouse(mouse)
            return
        }
        let typing = state.screen == .signIn || (state.screen == .catalog && state.search != nil)
        if !typing, key == .character("?") {
            state.showingHelp = true
            return
        }
        if !typing, key == .character("q") {
            finished = true
            stopFollowing()
            return
        }
        switch state.screen {
        case .catalogs: catalogsKey(key)
        case .catalog: state.search != nil ? searchKey(key) : catalogKey(key)
        case .detail: detailKey(key)
        case .signIn: signInKey(key)
        }
    }

    private func catalogsKey(_ key: Key) {
        let count = state.catalogs.count
        switch key {
        case .up: state.catalogSelection = max(0, state.catalogSelection - 1)
        case .down: state.catalogSelection = min(max(0, count - 1), state.catalogSelection + 1)
        case .home, .pageUp: state.catalogSelection = 0
        case .end, .pageDown: state.catalogSelection = max(0, count - 1)
        case .enter, .right:
            if state.catalogs.indices.contains(state.catalogSelection) {
                open(state.catalogs[state.catalogSelection].id)
            }
        case .character("r"): loadCatalogs()
        case .character("s") where client != nil: beginSignIn(returnTo: .catalogs)
        case .character("o") where client?.token != nil: signOut()
        default: break
        }
    }

    private func catalogKey(_ key: Key) {
        switch key {
        case .character("/"):
            var search = state.lastSearch ?? BrowserState.Search()
            search.line = search.line.reopened()
            state.search = search
            if state.search?.results.loaded != true { runSearch(debounce: false) }
            return
        case .tab, .backTab:
            switchTab(forward: key == .tab)
            return
        case .escape, .left, .backspace:
            if state.tab == .categories, state.openCategory != nil {
                state.openCategory = nil
            } else if state.offline {
                // The snapshot's catalog is the top level: nothing to go back to, and Esc never quits.
                break
            } else {
                state.screen = .catalogs
                state.catalog = nil
                stopFollowing()
            }
            return
        case .character("*"):
            toggleFavorite(state.currentList?.selectedRecord)
            return
        case .character("o") where state.tab != .list && client?.token != nil:
            signOut()
            return
        default: break
        }
        if state.tab == .categories, state.openCategory == nil {
            categoriesKey(key)
            return
        }
        if state.tab == .favorites, state.signedInAs == nil, !state.offline, key == .enter {
            beginSignIn(returnTo: .catalog)
            return
        }
        if listKey(key) { return }
        if state.tab == .list, case .character(let character) = key,
            character.isLetter || character.isNumber || character == "#"
        {
            jump(typing: character)
        }
    }

    /// Arrows, pages, Home, End and Enter on the current list; true when the key was one of them.
    private func listKey(_ key: Key) -> Bool {
        guard var list = state.currentList else { return false }
        let height = bodyHeight
        switch key {
        case .up: list.move(by: -1, height: height)
        case .down: list.move(by: 1, height: height)
        case .pageUp: list.move(by: -max(1, height - 1), height: height)
        case .pageDown: list.move(by: max(1, height - 1), height: height)
        case .home:
            if state.search == nil, state.tab == .list, list.before != nil {
                loadPage(.list, placement: .replace(selectLast: false))
                return true
            }
            list.selectEdge(last: false, height: height)
        case .end:
            if state.search == nil, state.tab == .list, list.after != nil {
                jumpToEnd()
                return true
            }
            list.selectEdge(last: true, height: height)
        case .enter, .right:
            if let record = list.selectedRecord {
                state.detail = BrowserState.Detail(record: record, returnTo: .catalog)
                state.screen = .detail
            }
            return true
        default:
            return false
        }
        state.currentList = list
        loadMoreIfNeeded()
        return true
    }

    private func categoriesKey(_ key: Key) {
        let count = state.categories.count
        let height = bodyHeight
        switch key {
        case .up: state.categorySelection = max(0, state.categorySelection - 1)
        case .down: state.categorySelection = min(max(0, count - 1), state.categorySelection + 1)
        case .pageUp: state.categorySelection = max(0, state.categorySelection - height)
        case .pageDown: state.categorySelection = min(max(0, count - 1), state.categorySelection + height)
        case .home: state.categorySelection = 0
        case .end: state.categorySelection = max(0, count - 1)
        case .enter, .right:
            guard state.categories.indices.contains(state.categorySelection) else { return }
            state.openCategory = state.categories[state.categorySelection].name
            state.categoryItems = RecordList()
            loadPage(.categoryItems, placement: .replace(selectLast: false))
        default: break
        }
        if state.categorySelection < state.categoryTop { state.categoryTop = state.categorySelection }
        if state.categorySelection >= state.categoryTop + height {
            state.categoryTop = state.categorySelection - height + 1
        }
    }

    private func searchKey(_ key: Key) {
        guard var search = state.search else { return }
        switch key {
        case .escape:
            state.lastSearch = state.search
            state.search = nil
            searchTask?.cancel()
            return
        case .tab, .backTab:
            let count = max(1, state.catalog?.scopes.count ?? 1)
            search.scope = (search.scope + (key == .tab ? 1 : count - 1)) % count
            state.search = search
            runSearch(debounce: false)
            return
        default:
            switch search.line.apply(key) {
            case .edited:
                state.search = search
                runSearch(debounce: true)
            case .moved:
                state.search = search
            case .ignored:
                _ = listKey(key)
            }
        }
    }

    private func detailKey(_ key: Key) {
        guard var detail = state.detail else { return }
        let page = max(1, height - 4)
        switch key {
        case .escape, .left, .backspace:
            state.screen = detail.returnTo
            state.detail = nil
            return
        case .up: detail.scroll = max(0, detail.scroll - 1)
        case .down: detail.scroll += 1
        case .pageUp: detail.scroll = max(0, detail.scroll - page)
        case .pageDown, .character(" "): detail.scroll += page
        case .home: detail.scroll = 0
        case .character("*"):
            toggleFavorite(detail.record)
            return
        case .character("o") where client?.token != nil:
            signOut()
            return
        default: return
        }
        detail.scroll = min(
            detail.scroll, max(0, BrowserView.detailLines(detail.record, state: state, width: width).count - page))
        state.detail = detail
    }

    private func signInKey(_ key: Key) {
        var form = state.signIn
        switch key {
        case .escape:
            state.screen = form.returnTo
            return
        case .tab, .backTab, .up, .down:
            form.onPassword.toggle()
        case .enter:
            if !form.onPassword {
                form.onPassword = true
            } else if !form.busy, !form.name.isEmpty, !form.password.isEmpty {
                form.busy = true
                form.failed = false
                submitSignIn(name: form.name, password: form.password)
            }
        case .backspace:
            if form.onPassword { _ = form.password.popLast() } else { _ = form.name.popLast() }
        case .character(let character):
            if form.onPassword { form.password.append(character) } else { form.name.append(character) }
        default: break
        }
        state.signIn = form
    }
}

/// The mouse: a click selects a row, a click on the selected row opens it, the wheel scrolls.
extension Browser {
    /// Rows the wheel moves at a time.
    static let wheelStep = 3

    fileprivate func mouse(_ mouse: Mouse) {
        switch mouse.action {
        case .wheelUp, .wheelDown:
            guard state.screen != .signIn else { return }
            let key: Key = mouse.action == .wheelUp ? .up : .down
            for _ in 0..<Self.wheelStep { handle(.key(key)) }
        case .click:
            click(row: mouse.row - 1)
        }
    }

    /// A click on screen row `row` (from 0).
    private func click(row: Int) {
        switch state.screen {
        case .catalogs:
            let index = row - 1
            guard state.catalogs.indices.contains(index) else { return }
            if index == state.catalogSelection { handle(.key(.enter)) } else { state.catalogSelection = index }
        case .catalog:
            let body = row - BrowserView.headerHeight(state: state)
            guard body >= 0, body < bodyHeight else { return }
            if state.search == nil, state.tab == .categories, state.openCategory == nil {
                let index = state.categoryTop + body
                guard state.categories.indices.contains(index) else { return }
                if index == state.categorySelection { handle(.key(.enter)) } else { state.categorySelection = index }
                return
            }
            // An open category's name takes the first row.
            let offset = state.search == nil && state.tab == .categories ? 1 : 0
            guard var list = state.currentList, body >= offset else { return }
            let index = list.top + body - offset
            guard list.entries.indices.contains(index), list.entries[index].record != nil else { return }
            if index == list.selected {
                handle(.key(.enter))
            } else {
                list.selected = index
                state.currentList = list
            }
        case .detail, .signIn:
            break
        }
    }
}
